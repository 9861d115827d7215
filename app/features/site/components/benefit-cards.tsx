import { type BenefitIcon, benefits } from '~/features/site/content'
import { Eyebrow } from './admission-link'
import { Compass, Eye, type LandingIcon, Target, Users } from './icons'

const ICONS: Record<BenefitIcon, LandingIcon> = { users: Users, eye: Eye, compass: Compass, target: Target }

export function BenefitCards() {
  return (
    <section id="beneficios" aria-labelledby="beneficios-title" className="bg-secondary">
      <div className="mx-auto max-w-6xl px-4 py-16 sm:py-20">
        <div className="max-w-2xl">
          <Eyebrow>{benefits.eyebrow}</Eyebrow>
          <h2 id="beneficios-title" className="mt-2 text-3xl font-bold tracking-tight text-navy sm:text-4xl">
            {benefits.title}
          </h2>
          <p className="mt-4 text-lg text-muted-foreground">{benefits.intro}</p>
        </div>
        <ul className="mt-10 grid gap-5 sm:grid-cols-2 lg:grid-cols-4">
          {benefits.cards.map((card) => {
            const Icon = ICONS[card.icon]
            return (
              <li key={card.title} className="flex flex-col rounded-xl border bg-background p-6 shadow-sm">
                <span className="grid size-12 place-items-center rounded-full bg-primary text-white">
                  <Icon className="size-6" aria-hidden />
                </span>
                <h3 className="mt-5 text-lg font-semibold text-navy">{card.title}</h3>
                <p className="mt-2 text-sm leading-relaxed text-muted-foreground">{card.text}</p>
              </li>
            )
          })}
        </ul>
      </div>
    </section>
  )
}
