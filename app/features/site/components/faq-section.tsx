import { useId, useState } from 'react'
import { externalLinks, faq, NEW_TAB_NOTICE } from '~/features/site/content'
import { Eyebrow } from './admission-link'
import { CalendarClock, ChevronDown, ExternalLink } from './icons'

/** FAQPage structured data (a data block: the CSP does not apply to it). */
export function faqJsonLd() {
  const data = {
    '@context': 'https://schema.org',
    '@type': 'FAQPage',
    mainEntity: faq.items.map((item) => ({
      '@type': 'Question',
      name: item.question,
      acceptedAnswer: { '@type': 'Answer', text: item.answer },
    })),
  }
  // '<' escaped so no text can close the script element.
  return JSON.stringify(data).replace(/</g, '\\u003c')
}

export function FaqSection() {
  return (
    <section id="faq" aria-labelledby="faq-title" className="mx-auto max-w-6xl px-4 pb-32 pt-16 sm:pt-20">
      <div className="grid gap-10 lg:grid-cols-3">
        <div className="lg:sticky lg:top-24 lg:self-start">
          <Eyebrow>{faq.eyebrow}</Eyebrow>
          <h2 id="faq-title" className="mt-2 text-3xl font-bold tracking-tight text-navy sm:text-4xl">
            {faq.title}
          </h2>
          <p className="mt-4 text-muted-foreground">{faq.intro}</p>
          <a
            href={externalLinks.booking}
            target="_blank"
            rel="noopener noreferrer"
            className="mt-6 inline-flex h-11 items-center gap-2 rounded-md border border-primary px-5 font-semibold text-primary transition-colors hover:bg-primary hover:text-white focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-offset-2"
          >
            <CalendarClock className="size-4" aria-hidden />
            {faq.contactCta}
            <ExternalLink className="size-4" aria-hidden />
            <span className="sr-only"> {NEW_TAB_NOTICE}</span>
          </a>
        </div>
        <FaqList />
      </div>
    </section>
  )
}

/**
 * The questions (spec 000: one open at a time, closed again with the same button): buttons with
 * `aria-expanded` that show their answer's region, the accordion pattern without a library.
 */
function FaqList() {
  const [open, setOpen] = useState<number | null>(null)
  const id = useId()
  return (
    <div className="divide-y border-y lg:col-span-2">
      {faq.items.map((item, index) => (
        <div key={item.question}>
          <h3>
            <button
              type="button"
              id={`${id}-q${index}`}
              aria-expanded={open === index}
              aria-controls={`${id}-a${index}`}
              onClick={() => setOpen(open === index ? null : index)}
              className="group flex w-full items-center justify-between gap-4 py-5 text-left font-semibold text-navy hover:text-primary focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-offset-2"
            >
              {item.question}
              <ChevronDown
                className="size-5 shrink-0 text-primary group-aria-expanded:rotate-180 motion-safe:transition-transform"
                aria-hidden
              />
            </button>
          </h3>
          <div
            id={`${id}-a${index}`}
            role="region"
            aria-labelledby={`${id}-q${index}`}
            hidden={open !== index}
            className="pb-5 pr-8 leading-relaxed text-muted-foreground"
          >
            {item.answer}
          </div>
        </div>
      ))}
    </div>
  )
}
