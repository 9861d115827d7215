import { Mail, MapPin, Phone } from 'lucide-react'
import { useState } from 'react'
import { Link } from 'react-router'
import { Dialog, DialogContent, DialogDescription, DialogTitle } from '~/ui/dialog'
import { site } from '~/site.config'

export function Footer() {
  const [contactOpen, setContactOpen] = useState(false)
  return (
    <footer className="border-t bg-navy text-slate-200">
      <div className="mx-auto flex max-w-6xl flex-col gap-6 px-4 py-10 md:flex-row md:items-center md:justify-between">
        <div>
          <p className="text-lg font-bold text-white">{site.name}</p>
          <p className="mt-1 max-w-sm text-sm text-slate-300">{site.tagline}</p>
        </div>
        <nav aria-label="Pie de página" className="flex flex-wrap items-center gap-x-6 gap-y-2 text-sm">
          <a href="/#faq" className="hover:text-white hover:underline">
            Preguntas frecuentes
          </a>
          <Link to="/legal" className="hover:text-white hover:underline">
            Aviso legal
          </Link>
          <Link to="/privacidad" className="hover:text-white hover:underline">
            Privacidad y cookies
          </Link>
          <button type="button" className="hover:text-white hover:underline" aria-haspopup="dialog" onClick={() => setContactOpen(true)}>
            Contacto
          </button>
          <Dialog open={contactOpen} onOpenChange={setContactOpen}>
            <DialogContent>
              <DialogTitle>Contacto</DialogTitle>
              <DialogDescription>Escríbenos o llámanos: respondemos en un día laborable.</DialogDescription>
              <ul className="grid gap-3 text-sm">
                <li className="flex items-center gap-3">
                  <Mail className="size-4 text-primary" aria-hidden />
                  <a href={`mailto:${site.contactEmail}`} className="text-primary underline-offset-4 hover:underline">
                    {site.contactEmail}
                  </a>
                </li>
                <li className="flex items-center gap-3">
                  <Phone className="size-4 text-primary" aria-hidden />
                  <a href={`tel:${site.phone.replace(/\s+/g, '')}`} className="text-primary underline-offset-4 hover:underline">
                    {site.phone}
                  </a>
                </li>
                <li className="flex items-center gap-3">
                  <MapPin className="size-4 text-primary" aria-hidden />
                  <span>{site.address.full}</span>
                </li>
              </ul>
            </DialogContent>
          </Dialog>
        </nav>
      </div>
      {/* The browser's clock may be in another year than the server's (New Year's Eve across time
          zones, a wrong clock): the server's text stays instead of React re-rendering the page. */}
      <p className="border-t border-white/10 py-4 text-center text-xs text-slate-400" suppressHydrationWarning>
        © {new Date().getFullYear()} {site.legalName}
      </p>
    </footer>
  )
}
