import { CheckCircle2 } from 'lucide-react'
import { useEffect, useState } from 'react'
import { Link, useNavigate } from 'react-router'
import { Button } from '~/ui/button'
import { site } from '~/site.config'
import type { Route } from './+types/success.route'

export const meta: Route.MetaFunction = () => [{ title: `Pago procesado · ${site.name}` }, { name: 'robots', content: 'noindex' }]

const REDIRECT_SECONDS = 5

export default function SuccessPage() {
  const navigate = useNavigate()
  const [secondsLeft, setSecondsLeft] = useState(REDIRECT_SECONDS)
  useEffect(() => {
    if (secondsLeft <= 0) {
      void navigate('/perfil')
      return
    }
    const timer = setTimeout(() => setSecondsLeft((seconds) => seconds - 1), 1000)
    return () => clearTimeout(timer)
  }, [secondsLeft, navigate])
  return (
    <section className="mx-auto flex max-w-xl flex-col items-center px-4 py-20 text-center">
      <CheckCircle2 className="size-16 text-emerald-600" aria-hidden />
      <h1 className="mt-6 text-3xl font-bold">¡Pago procesado!</h1>
      <p className="mt-4 text-muted-foreground">
        Gracias por unirte. Tu membresía premium se activa en unos instantes; te recibimos en tu perfil.
      </p>
      <p className="mt-2 text-sm text-muted-foreground" aria-live="polite">
        Te llevamos a tu perfil en {secondsLeft} s.
      </p>
      <Button asChild className="mt-8">
        <Link to="/perfil">Ir a mi perfil</Link>
      </Button>
    </section>
  )
}
