import { hero } from '~/features/site/content'
import { AdmissionLink, Eyebrow } from './admission-link'
import { Check } from './icons'

export function Hero() {
  return (
    <section aria-labelledby="hero-title" className="relative isolate overflow-hidden bg-navy text-white">
      {/* Soft evening light: CSS gradients only, nothing to download above the fold. */}
      <div
        aria-hidden
        className="absolute inset-0 -z-10 bg-[radial-gradient(60%_55%_at_85%_15%,rgba(11,79,74,0.85),transparent_70%),radial-gradient(45%_45%_at_10%_100%,rgba(184,134,11,0.22),transparent_70%)]"
      />
      <div className="mx-auto grid max-w-6xl items-center gap-12 px-4 py-16 sm:py-24 lg:grid-cols-[minmax(0,1fr)_20rem] lg:py-28">
        <div className="flex flex-col items-start gap-6">
          <Eyebrow onDark>{hero.eyebrow}</Eyebrow>
          <h1 id="hero-title" className="max-w-3xl text-4xl font-bold leading-tight tracking-tight text-balance sm:text-5xl lg:text-6xl">
            {hero.headline}
          </h1>
          <p className="max-w-2xl text-lg text-slate-200 sm:text-xl">{hero.lead}</p>
          <div className="flex w-full flex-col gap-3 sm:w-auto sm:flex-row">
            <AdmissionLink onDark>{hero.primaryCta}</AdmissionLink>
            <AdmissionLink tone="outline-dark" onDark>
              {hero.secondaryCta}
            </AdmissionLink>
          </div>
          <ul className="mt-2 flex flex-wrap gap-x-6 gap-y-2 text-sm text-slate-200">
            {hero.highlights.map((item) => (
              <li key={item} className="flex items-center gap-2">
                <Check className="size-4 text-amber-300" aria-hidden />
                {item}
              </li>
            ))}
          </ul>
        </div>
        <div className="hidden rounded-2xl border border-white/15 bg-white/5 p-6 shadow-2xl lg:block">
          <p className="text-sm font-semibold uppercase tracking-widest text-amber-300">{hero.panelTitle}</p>
          <ul className="mt-4 divide-y divide-white/10">
            {hero.panel.map((item) => (
              <li key={item.value} className="py-4 first:pt-2 last:pb-0">
                <p className="text-3xl font-bold text-white">{item.value}</p>
                <p className="mt-1 text-sm text-slate-200">{item.label}</p>
              </li>
            ))}
          </ul>
        </div>
      </div>
    </section>
  )
}
