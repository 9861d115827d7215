import type { ReactNode } from 'react'
import { longDate } from '~/platform/dates'
import { site } from '~/site.config'

/** The typography of the legal pages (/legal, /privacidad), written once. */
export const link = 'text-primary underline underline-offset-4 hover:no-underline'
const th = 'border-b border-slate-300 bg-slate-50 px-3 py-2 text-left align-top font-semibold text-slate-900'
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

/** A legal page: its title, the date of its last update, then its text. */
export function LegalDocument({ title, children }: { title: string; children: ReactNode }) {
  return (
    <article className="mx-auto max-w-3xl px-4 py-12 text-slate-900">
      <h1 className="text-3xl font-bold tracking-tight">{title}</h1>
      <p className="mt-2 text-sm text-slate-700">
        Última actualización: <time dateTime={site.legalUpdatedAt}>{longDate(site.legalUpdatedAt)}</time>
      </p>
      {children}
    </article>
  )
}

export function MailLink({ email }: { email: string }) {
  return (
    <a href={`mailto:${email}`} className={link}>
      {email}
    </a>
  )
}

/** Who is responsible, a term and its value a row. */
export function Identity({ rows }: { rows: [string, ReactNode][] }) {
  return (
    <dl className="mt-4 grid gap-x-6 gap-y-2 leading-7 text-slate-700 sm:grid-cols-[12rem_1fr]">
      {rows.map(([term, value]) => (
        <div key={term} className="contents">
          <dt className="font-semibold text-slate-900">{term}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
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

/** A table a phone scrolls sideways: its region is named and reachable by keyboard. */
export function Table({
  label,
  caption,
  cols,
  narrow,
  children,
}: {
  label: string
  caption: ReactNode
  cols: string[]
  narrow?: boolean
  children: ReactNode
}) {
  return (
    <div className="mt-4 overflow-x-auto" role="region" aria-label={`${label} (tabla desplazable)`} tabIndex={0}>
      <table className={`w-full ${narrow ? 'min-w-[28rem]' : 'min-w-[32rem]'} border-collapse text-sm`}>
        <caption className="mb-2 caption-top text-left font-medium text-slate-900">{caption}</caption>
        <thead>
          <tr>
            {cols.map((col) => (
              <th key={col} scope="col" className={th}>
                {col}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </div>
  )
}
