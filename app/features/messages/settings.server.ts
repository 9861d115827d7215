import { z } from 'zod'
import { blankToUndefined } from '~/platform/http/text-fields'
import { setting, type SettingsCard } from '~/platform/settings/settings.server'

/** Members an operator silenced, by the id in their page's address (/usuario/<id>). */
const MEMBER_ID = /^[A-Za-z0-9_-]{1,100}$/
const MUTED_MAX = 500

// An empty textarea may not be sent at all: no text is no member.
const mutedList = z
  .string()
  .optional()
  .transform((text) => [...new Set((text ?? '').split(/[\s,]+/).filter(Boolean))])
  .pipe(
    z
      .array(z.string().regex(MEMBER_ID, 'Escribe un identificador de miembro por línea (el de su página /usuario/…)'))
      .max(MUTED_MAX, `Como mucho ${MUTED_MAX} miembros`),
  )

/**
 * The kill switches of issue 41, in /admin/ajustes: messages off for everyone, or for some members
 * (they can neither send nor be written to). Saved settings are audited ('settings_changed') and
 * every process reads them again at once (platform/settings).
 */
export const messagesSettings = {
  title: 'Mensajes privados',
  description: 'Apaga los mensajes para toda la comunidad o para algunos miembros. Cada cambio queda registrado.',
  settings: {
    messagesEnabled: setting<boolean>({
      default: true,
      schema: z.boolean(),
      fields: {
        messagesEnabled: {
          control: { kind: 'checkbox', label: 'Mensajes privados activados', description: 'los miembros premium pueden escribirse.' },
          rule: z.preprocess(blankToUndefined, z.literal('on').optional()).transform((value) => value === 'on'),
        },
      },
    }),
    messagesMutedMembers: setting<string[]>({
      default: [],
      schema: z.array(z.string().regex(MEMBER_ID)).max(MUTED_MAX),
      fields: {
        messagesMutedMembers: {
          control: { kind: 'textarea', label: 'Miembros sin mensajes (su identificador, uno por línea)', rows: 3, maxLength: 20_000 },
          rule: mutedList,
        },
      },
      toForm: (value) => ({ messagesMutedMembers: value.join('\n') }),
    }),
  },
} satisfies SettingsCard
