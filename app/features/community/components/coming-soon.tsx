import type { LucideIcon } from 'lucide-react'
import type { ReactNode } from 'react'

/** A tab whose feature has not been built yet says so plainly, with nothing made up in it. */
export function ComingSoon({ icon: Icon, title, children }: { icon: LucideIcon; title: string; children: ReactNode }) {
  return (
    <section aria-labelledby="coming-soon-title" className="rounded-xl border border-dashed bg-card p-8 text-center">
      <Icon className="mx-auto size-8 text-primary" aria-hidden />
      <h2 id="coming-soon-title" className="mt-3 text-lg font-semibold">
        {title}
      </h2>
      <p className="mx-auto mt-2 max-w-md text-sm text-muted-foreground">{children}</p>
      <p className="mt-3 text-sm font-medium">Próximamente</p>
    </section>
  )
}
