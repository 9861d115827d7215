import { access } from '~/features/site/content'
import { AdmissionLink, Eyebrow } from './admission-link'
import { CircleCheck } from './icons'

export function AccessSection() {
  return (
    <section aria-labelledby="acceso-title" className="mx-auto max-w-6xl px-4 py-16 sm:py-20">
      <div className="grid gap-10 lg:grid-cols-5 lg:items-center">
        <div className="lg:col-span-2">
          <Eyebrow>{access.eyebrow}</Eyebrow>
          <h2 id="acceso-title" className="mt-2 text-3xl font-bold tracking-tight text-navy sm:text-4xl">
            {access.title}
          </h2>
          <p className="mt-4 text-lg text-muted-foreground">{access.intro}</p>
          <AdmissionLink className="mt-8 w-full sm:w-auto">{access.cta}</AdmissionLink>
        </div>
        <ul className="grid gap-4 sm:grid-cols-2 lg:col-span-3">
          {access.items.map((item) => (
            <li key={item.title} className="flex gap-3 rounded-xl border bg-background p-5 shadow-sm">
              <CircleCheck className="mt-0.5 size-5 shrink-0 text-primary" aria-hidden />
              <div>
                <h3 className="font-semibold text-navy">{item.title}</h3>
                <p className="mt-1 text-sm text-muted-foreground">{item.text}</p>
              </div>
            </li>
          ))}
        </ul>
      </div>
    </section>
  )
}
