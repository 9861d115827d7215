import { Accordion } from 'radix-ui'
import { externalLinks, faq, NEW_TAB_NOTICE } from '~/features/site/content'
import { Eyebrow } from './external-button'
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
        <Accordion.Root type="single" collapsible className="divide-y border-y lg:col-span-2">
          {faq.items.map((item, index) => (
            <Accordion.Item key={item.question} value={`faq-${index + 1}`}>
              <Accordion.Header>
                <Accordion.Trigger className="group flex w-full items-center justify-between gap-4 py-5 text-left font-semibold text-navy hover:text-primary focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-offset-2">
                  {item.question}
                  <ChevronDown
                    className="size-5 shrink-0 text-primary group-data-[state=open]:rotate-180 motion-safe:transition-transform"
                    aria-hidden
                  />
                </Accordion.Trigger>
              </Accordion.Header>
              <Accordion.Content className="pb-5 pr-8 leading-relaxed text-muted-foreground">{item.answer}</Accordion.Content>
            </Accordion.Item>
          ))}
        </Accordion.Root>
      </div>
    </section>
  )
}
