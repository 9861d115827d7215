/** The community announcement's length (a single line above the tabs). */
export const ANNOUNCEMENT_MAX = 280
