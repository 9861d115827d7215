/** The roles an admin grants on a member's page, as the page and its toasts name them. */
export const ROLE_NAMES = { admin: 'administrador', moderator: 'moderador' } as const
