import { closing } from '~/features/site/content'
import { AdmissionLink } from './admission-link'

export function ClosingCta() {
  return (
    <section aria-labelledby="cierre-title" className="relative isolate overflow-hidden bg-navy text-white">
      <div aria-hidden className="absolute inset-0 -z-10 bg-[radial-gradient(50%_70%_at_50%_0%,rgba(11,79,74,0.9),transparent_75%)]" />
      <div className="mx-auto flex max-w-3xl flex-col items-center px-4 py-16 text-center sm:py-20">
        <span aria-hidden className="h-1 w-16 rounded-full bg-gold" />
        <h2 id="cierre-title" className="mt-6 text-3xl font-bold tracking-tight sm:text-5xl">
          {closing.title}
        </h2>
        <p className="mt-5 text-lg text-slate-200">{closing.text}</p>
        <AdmissionLink onDark className="mt-8 w-full sm:w-auto">
          {closing.primaryCta}
        </AdmissionLink>
      </div>
    </section>
  )
}
