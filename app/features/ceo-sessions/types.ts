/**
 * The fields of the create and edit dialogs (spec 001 §5). The date is the wall time in Madrid in
 * the dialog, a Date once validated.
 */
export interface SessionFields<When = Date> {
  title: string
  summary: string
  description: string
  ceoName: string
  ceoPosition: string
  ceoCompany: string
  sessionDate: When
  durationMinutes: number | null
  tags: string[]
  isFeatured: boolean
}
