import { Search } from 'lucide-react'
import { useEffect, useRef } from 'react'
import { Form, Link, useNavigate } from 'react-router'

/** Where typing '/' means the character, not the search box. */
const typing = (target: EventTarget | null) =>
  target instanceof HTMLElement && (target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName))

/**
 * The top bar's search, for members who may read the community: a box on wide screens, a link to
 * /buscar on phones. '/' focuses it (or opens /buscar on a phone), unless the member is typing.
 */
export function SearchBox() {
  const input = useRef<HTMLInputElement>(null)
  const navigate = useNavigate()
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== '/' || event.ctrlKey || event.metaKey || event.altKey || typing(event.target)) return
      event.preventDefault()
      if (input.current?.offsetParent) input.current.focus()
      else void navigate('/buscar')
    }
    document.addEventListener('keydown', onKeyDown)
    return () => document.removeEventListener('keydown', onKeyDown)
  }, [navigate])
  return (
    <>
      <Form method="get" action="/buscar" role="search" aria-label="Buscar en la comunidad" className="relative hidden md:block">
        <Search className="pointer-events-none absolute left-2.5 top-1/2 size-4 -translate-y-1/2 text-muted-foreground" aria-hidden />
        <input
          ref={input}
          type="search"
          name="q"
          maxLength={100}
          placeholder="Buscar (pulsa /)"
          aria-label="Buscar en la comunidad"
          className="h-9 w-44 rounded-md border bg-background pl-8 pr-2 text-sm placeholder:text-muted-foreground focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring lg:w-56"
        />
      </Form>
      <Link to="/buscar" aria-label="Buscar" className="rounded-md p-2 hover:bg-accent md:hidden">
        <Search className="size-5" aria-hidden />
      </Link>
    </>
  )
}
