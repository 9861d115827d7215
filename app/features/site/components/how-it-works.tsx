import { howItWorks } from '~/features/site/content'
import { AdmissionLink, Eyebrow } from './admission-link'
import { Video } from './icons'

export function HowItWorks() {
  return (
    <section id="como-funciona" aria-labelledby="como-funciona-title" className="bg-secondary">
      <div className="mx-auto max-w-6xl px-4 py-16 sm:py-20">
        <div className="max-w-2xl">
          <Eyebrow>{howItWorks.eyebrow}</Eyebrow>
          <h2 id="como-funciona-title" className="mt-2 text-3xl font-bold tracking-tight text-navy sm:text-4xl">
            {howItWorks.title}
          </h2>
          <p className="mt-4 text-lg text-muted-foreground">{howItWorks.intro}</p>
        </div>
        <ol className="mt-10 grid gap-5 md:grid-cols-3">
          {howItWorks.steps.map((step, index) => (
            <li key={step.title} className="relative rounded-xl border bg-background p-6 shadow-sm">
              <span aria-hidden className="grid size-10 place-items-center rounded-full bg-navy text-lg font-bold text-white">
                {index + 1}
              </span>
              <h3 className="mt-4 text-lg font-semibold text-navy">
                <span className="sr-only">Paso {index + 1}: </span>
                {step.title}
              </h3>
              <p className="mt-2 text-sm leading-relaxed text-muted-foreground">{step.text}</p>
            </li>
          ))}
        </ol>
        <p className="mt-8 flex items-start gap-3 rounded-xl border border-primary/20 bg-background p-4 text-sm text-foreground sm:items-center">
          <Video className="mt-0.5 size-5 shrink-0 text-primary sm:mt-0" aria-hidden />
          {howItWorks.note}
        </p>
        <AdmissionLink className="mt-8 w-full sm:w-auto">{howItWorks.cta}</AdmissionLink>
      </div>
    </section>
  )
}
