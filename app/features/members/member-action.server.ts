import { z } from 'zod'
import type { CurrentUser } from '~/features/account/guards.server'
import { handleIntent, refuse } from '~/platform/http/responses.server'
import { redirectWithToast } from '~/platform/http/toast.server'
import { deleteAccount, DELETION_MESSAGES } from '~/features/account/account-deletion.server'
import { queueDataExport } from '~/features/account/data-export.server'
import { WritingChoice } from '~/features/account/profile-schemas'
import { recordAudit } from '~/platform/audit/audit.server'
import { RefundIntent, refundIntent } from '~/features/billing/refund.server'
import { REFUND_MESSAGES } from '~/features/billing/refund-limits'
import { ROLE_NAMES } from './role-names'
import { accountExists, changeRole, LastAdminError, setPremiumByAdmin } from './roles.server'

const MemberIntent = z.discriminatedUnion('intent', [
  z.object({ intent: z.literal('premium'), premium: z.enum(['true', 'false']).transform((value) => value === 'true') }),
  z.object({ intent: z.literal('export-data') }),
  z.object({
    intent: z.literal('delete-account'),
    writing: WritingChoice,
    confirm: z.literal('on', { error: 'Confirma que el miembro lo ha pedido y que no se puede deshacer' }),
  }),
  z.object({
    intent: z.literal('role'),
    role: z.enum(['admin', 'moderator']),
    grant: z.enum(['true', 'false']).transform((value) => value === 'true'),
  }),
  RefundIntent,
])

/**
 * An admin's controls on /usuario/:id (docs/decisions/0012): premium and roles (audited in
 * roles.server.ts), at the member's request their data and the deletion of their account, and
 * the refund of a payment (billing/refund.server.ts, decisions/0033).
 */
export function memberAction(request: Request, admin: CurrentUser, targetId: string) {
  const path = `/usuario/${targetId}`
  return handleIntent(request, MemberIntent, {
    premium: {
      invalid: 'Error al actualizar estado premium',
      async run({ premium }) {
        await setPremiumByAdmin({ actorId: admin.id, targetId, premium })
        return redirectWithToast(path, { type: 'success', title: premium ? 'Usuario promovido a premium' : 'Usuario degradado de premium' })
      },
    },
    'export-data': {
      invalid: 'No se pudieron exportar sus datos',
      async run() {
        if (!(await accountExists(targetId))) refuse(404, 'Usuario no encontrado')
        await queueDataExport(targetId)
        await recordAudit({ action: 'member_data_exported', actorUserId: admin.id, targetUserId: targetId })
        return redirectWithToast(path, { type: 'success', title: 'Le enviaremos por email el enlace para descargar sus datos' })
      },
    },
    'delete-account': {
      invalid: 'Revisa los datos para eliminar su cuenta',
      failed: 'No se pudo eliminar la cuenta. Vuelve a intentarlo en unos minutos.',
      async run({ writing }) {
        try {
          if (!(await deleteAccount({ userId: targetId, actorId: admin.id, writing }))) refuse(404, 'Usuario no encontrado')
        } catch (error) {
          if (error instanceof LastAdminError) refuse(409, DELETION_MESSAGES.lastAdminByAdmin)
          throw error
        }
        return redirectWithToast(targetId === admin.id ? '/' : '/admin/miembros', { type: 'success', title: DELETION_MESSAGES.doneByAdmin })
      },
    },
    refund: {
      invalid: REFUND_MESSAGES.invalid,
      failed: REFUND_MESSAGES.failed,
      run: (input) => refundIntent(admin, targetId, input),
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
