import { NavLink } from 'react-router'
import { cn } from './cn'

/**
 * A section's tabs as links (each tab its own URL): the current one marked for sight and for
 * screen readers (aria-current). The first tab is the section's index: only its own URL marks it.
 */
export function TabNav({ label, tabs }: { label: string; tabs: ReadonlyArray<{ path: string; label: string }> }) {
  return (
    <nav aria-label={label} className="-mx-4 flex overflow-x-auto border-b px-4 sm:gap-1">
      {tabs.map((tab, index) => (
        <NavLink
          key={tab.path}
          to={tab.path}
          end={index === 0}
          prefetch="intent"
          className={({ isActive }) =>
            cn(
              '-mb-px shrink-0 border-b-2 border-transparent px-2 py-2 text-sm font-medium text-muted-foreground hover:text-foreground sm:px-4',
              isActive && 'border-primary text-foreground',
            )
          }
        >
          {tab.label}
        </NavLink>
      ))}
    </nav>
  )
}
