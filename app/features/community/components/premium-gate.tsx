import { AdmissionButton } from '~/features/site/components/admission-button'
import { Lock } from 'lucide-react'
import { createContext, useContext, useState, type ReactNode } from 'react'
import { Dialog, DialogContent, DialogDescription, DialogTitle } from '~/ui/dialog'

const PremiumGate = createContext<{ hasAccess: boolean; ask: () => void }>({ hasAccess: false, ask: () => {} })

/** Spec: members without access get the 'Acceso Premium Requerido' modal when they try to interact. */
export function PremiumGateProvider({ hasAccess, children }: { hasAccess: boolean; children: ReactNode }) {
  const [open, setOpen] = useState(false)
  return (
    <PremiumGate.Provider value={{ hasAccess, ask: () => setOpen(true) }}>
      {children}
      <Dialog open={open} onOpenChange={setOpen}>
        <DialogContent>
          <DialogTitle className="flex items-center gap-2">
            <Lock className="size-5 text-gold" aria-hidden /> Acceso Premium Requerido
          </DialogTitle>
          <DialogDescription>
            Publicar, comentar y dar like es parte de la membresía premium. Solicita tu admisión para participar en la comunidad.
          </DialogDescription>
          <AdmissionButton label="Solicitar Admisión" />
        </DialogContent>
      </Dialog>
    </PremiumGate.Provider>
  )
}

export function usePremiumGate() {
  return useContext(PremiumGate)
}
