const CHOICE = 'size-4 shrink-0 accent-primary'

/**
 * What happens to the member's posts and comments, and the checkbox that says it cannot be undone:
 * the same two questions when the member deletes their account and when an admin does it for them.
 */
export function DeletionChoices({ who }: { who: 'self' | 'admin' }) {
  const yours = who === 'self' ? 'Lo que escribiste' : 'Lo que escribió'
  return (
    <>
      <fieldset className="grid gap-2">
        <legend className="mb-1 text-sm font-medium">{yours} en la comunidad (posts y comentarios)</legend>
        <label className="flex items-start gap-2 text-sm">
          <input type="radio" name="writing" value="keep" defaultChecked className={`${CHOICE} mt-0.5`} />
          <span>Conservarlo como «Miembro eliminado», sin nombre ni foto, para que las conversaciones sigan teniendo sentido</span>
        </label>
        <label className="flex items-start gap-2 text-sm">
          <input type="radio" name="writing" value="delete" className={`${CHOICE} mt-0.5`} />
          <span>Eliminarlo también, con las respuestas que otros miembros le dieron</span>
        </label>
      </fieldset>
      <label className="flex items-start gap-2 text-sm">
        <input type="checkbox" name="confirm" required className={`${CHOICE} mt-0.5`} />
        <span>{who === 'self' ? 'Entiendo que no se puede deshacer' : 'El miembro lo ha pedido y entiendo que no se puede deshacer'}</span>
      </label>
    </>
  )
}
