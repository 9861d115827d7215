import { NEW_TAB_NOTICE, press } from '~/features/site/content'
import { Eyebrow } from './admission-link'
import { ExternalLink, Newspaper } from './icons'
import { PodcastPlayer } from './podcast-player'

export function PressMentions() {
  const outlets = [...new Set(press.articles.map((article) => article.outlet))]
  return (
    <section aria-labelledby="prensa-title" className="mx-auto max-w-6xl px-4 py-16 sm:py-20">
      <div className="max-w-2xl">
        <Eyebrow>{press.eyebrow}</Eyebrow>
        <h2 id="prensa-title" className="mt-2 text-3xl font-bold tracking-tight text-navy sm:text-4xl">
          {press.title}
        </h2>
        <p className="mt-4 text-lg text-muted-foreground">{press.intro}</p>
      </div>
      <p className="mt-8 flex flex-wrap items-center gap-x-6 gap-y-2 text-base font-semibold tracking-tight text-slate-600">
        <span className="sr-only">Medios: </span>
        {outlets.map((outlet) => (
          <span key={outlet} className="flex items-center gap-2">
            <Newspaper className="size-4" aria-hidden />
            {outlet}
          </span>
        ))}
      </p>
      <div className="mt-8 grid gap-8 lg:grid-cols-5">
        <ul className="grid gap-4 sm:grid-cols-2 lg:col-span-3">
          {press.articles.map((article) => (
            <li key={article.url} className="relative flex flex-col rounded-xl border bg-background p-5 shadow-sm hover:border-primary/60">
              <p className="text-xs font-semibold uppercase tracking-wider text-primary">{article.outlet}</p>
              <h3 className="mt-2 font-semibold leading-snug text-navy">
                <a
                  href={article.url}
                  target="_blank"
                  rel="noopener noreferrer"
                  className="rounded-sm after:absolute after:inset-0 after:rounded-xl hover:underline focus-visible:outline-none focus-visible:after:ring-2 focus-visible:after:ring-ring"
                >
                  {article.title}
                  <span className="sr-only"> {NEW_TAB_NOTICE}</span>
                </a>
              </h3>
              <p className="mt-auto flex items-center gap-1 pt-3 text-sm text-muted-foreground">
                {article.date}
                <ExternalLink className="ml-auto size-4" aria-hidden />
              </p>
            </li>
          ))}
        </ul>
        <PodcastPlayer className="lg:col-span-2" />
      </div>
    </section>
  )
}
