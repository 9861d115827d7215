import { ceoNight } from '~/features/site/content'
import { Eyebrow } from './admission-link'
import { Sparkles } from './icons'
import { ResponsivePicture } from './responsive-picture'

const SIZES = '(min-width: 1152px) 560px, (min-width: 640px) 50vw, 100vw'

export function CeoNight() {
  return (
    <section aria-labelledby="ceo-night-title" className="bg-navy text-white">
      <div className="mx-auto max-w-6xl px-4 py-16 sm:py-20">
        <div className="grid gap-8 lg:grid-cols-2 lg:items-end">
          <div>
            <Eyebrow onDark>{ceoNight.eyebrow}</Eyebrow>
            <h2 id="ceo-night-title" className="mt-2 text-3xl font-bold tracking-tight sm:text-4xl">
              {ceoNight.title}
            </h2>
            <p className="mt-4 text-lg text-slate-200">{ceoNight.text}</p>
          </div>
          <ul className="grid gap-3">
            {ceoNight.points.map((point) => (
              <li key={point} className="flex gap-3 text-slate-100">
                <Sparkles className="mt-0.5 size-5 shrink-0 text-amber-300" aria-hidden />
                {point}
              </li>
            ))}
          </ul>
        </div>
        <div className="mt-10 grid gap-4 sm:grid-cols-2 sm:gap-6">
          {ceoNight.images.map((image) => (
            <ResponsivePicture key={image.base} image={image} sizes={SIZES} className="rounded-xl shadow-lg ring-1 ring-white/10" />
          ))}
        </div>
      </div>
    </section>
  )
}
