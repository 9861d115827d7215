import { z } from 'zod'
import type { CurrentUser } from '~/platform/auth/guards.server'
import { handleIntent, refuse } from '~/platform/http/responses.server'
import { redirectWithToast } from '~/platform/http/toast.server'
import { ROLE_NAMES } from './role-names'
import { changeRole, LastAdminError, setPremiumByAdmin } from './roles.server'

const MemberIntent = z.discriminatedUnion('intent', [
  z.object({ intent: z.literal('premium'), premium: z.enum(['true', 'false']).transform((value) => value === 'true') }),
  z.object({
    intent: z.literal('role'),
    role: z.enum(['admin', 'moderator']),
    grant: z.enum(['true', 'false']).transform((value) => value === 'true'),
  }),
])

/** An admin's controls on /usuario/:id (docs/decisions/0012): premium and roles, audited in roles.server.ts. */
export function memberAction(request: Request, admin: CurrentUser, targetId: string) {
  const path = `/usuario/${targetId}`
  return handleIntent(request, MemberIntent, {
    premium: {
      invalid: 'Error al actualizar estado premium',
      async run({ premium }) {
        const updated = await setPremiumByAdmin({ actorId: admin.id, targetId, premium })
        if (!updated) refuse(404, 'Usuario no encontrado')
        return redirectWithToast(path, { type: 'success', title: premium ? 'Usuario promovido a premium' : 'Usuario degradado de premium' })
      },
    },
    role: {
      invalid: 'Error al actualizar el rol',
      async run({ role, grant }) {
        try {
          await changeRole({ actorId: admin.id, targetId, role, grant })
        } catch (error) {
          if (error instanceof LastAdminError) refuse(409, error.message)
          throw error
        }
        return redirectWithToast(path, {
          type: 'success',
          title: `Rol ${ROLE_NAMES[role]} ${grant ? 'asignado' : 'removido'} correctamente`,
        })
      },
    },
  })
}
