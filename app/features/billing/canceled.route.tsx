import { XCircle } from 'lucide-react'
import { Link } from 'react-router'
import { Button } from '~/ui/button'
import { site } from '~/site.config'
import type { Route } from './+types/canceled.route'

export const meta: Route.MetaFunction = () => [{ title: `Pago cancelado · ${site.name}` }, { name: 'robots', content: 'noindex' }]

export default function CanceledPage() {
  return (
    <section className="mx-auto flex max-w-xl flex-col items-center px-4 py-20 text-center">
      <XCircle className="size-16 text-muted-foreground" aria-hidden />
      <h1 className="mt-6 text-3xl font-bold">Pago cancelado</h1>
      <p className="mt-4 text-muted-foreground">No se ha realizado ningún cargo. Puedes volver a intentarlo cuando quieras.</p>
      <div className="mt-8 flex flex-wrap justify-center gap-3">
        <Button asChild variant="outline">
          <Link to="/">Volver al inicio</Link>
        </Button>
        <Button asChild>
          <Link to="/#pricing">Ver precios</Link>
        </Button>
      </div>
    </section>
  )
}
