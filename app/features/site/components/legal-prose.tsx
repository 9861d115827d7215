import type { ReactNode } from 'react'
import { longDate } from '~/platform/dates'
import { site } from '~/site.config'

/** The typography of the legal pages (/legal, /privacidad), written once. */
export const link = 'text-primary underline underline-offset-4 hover:no-underline'
export const th = 'border-b border-slate-300 bg-slate-50 px-3 py-2 text-left align-top font-semibold text-slate-900'
export const td = 'border-b border-slate-200 px-3 py-2 align-top text-slate-700'

/** A page's numbered sections: their titles once, for the headings, the anchors and the contents list. */
export function sectionsOf<Id extends string>(titles: Record<Id, string>) {
  function Section({ id, children }: { id: Id; children: ReactNode }) {
    return (
      <section aria-labelledby={id}>
        <h2 id={id} className="mt-10 scroll-mt-24 text-xl font-semibold text-slate-900">
          {titles[id]}
        </h2>
        {children}
      </section>
    )
  }
  function Contents() {
    return (
      <nav aria-labelledby="indice" className="mt-8 rounded-lg border border-slate-200 bg-slate-50 p-5">
        <h2 id="indice" className="text-base font-semibold text-slate-900">
          Contenido
        </h2>
        <ol className="mt-3 space-y-1 text-sm leading-6">
          {Object.entries<string>(titles).map(([id, title]) => (
            <li key={id}>
              <a href={`#${id}`} className={link}>
                {title}
              </a>
            </li>
          ))}
        </ol>
      </nav>
    )
  }
  return { Section, Contents }
}

export function LegalTitle({ children }: { children: ReactNode }) {
  return (
    <>
      <h1 className="text-3xl font-bold tracking-tight">{children}</h1>
      <p className="mt-2 text-sm text-slate-700">
        Última actualización: <time dateTime={site.legalUpdatedAt}>{longDate(site.legalUpdatedAt)}</time>
      </p>
    </>
  )
}

export function P({ children }: { children: ReactNode }) {
  return <p className="mt-4 leading-7 text-slate-700">{children}</p>
}

export function UL({ children }: { children: ReactNode }) {
  return <ul className="mt-4 list-disc space-y-2 pl-6 leading-7 text-slate-700">{children}</ul>
}

export function B({ children }: { children: ReactNode }) {
  return <strong className="font-semibold text-slate-900">{children}</strong>
}

export function H3({ children }: { children: ReactNode }) {
  return <h3 className="mt-6 text-lg font-semibold text-slate-900">{children}</h3>
}

export function Thead({ cols }: { cols: string[] }) {
  return (
    <thead>
      <tr>
        {cols.map((col) => (
          <th key={col} scope="col" className={th}>
            {col}
          </th>
        ))}
      </tr>
    </thead>
  )
}
