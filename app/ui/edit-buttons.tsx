import { Button } from './button'
import { useHydrated } from './use-hydrated'

/**
 * An edit-in-place form's 'Guardar', and its 'Cancelar' once the page runs: before that the form
 * sits in a disclosure, which closes itself, or on a page of its own, which `cancelTo` leaves.
 */
export function EditButtons({ disabled, onCancel, cancelTo }: { disabled: boolean; onCancel?: () => void; cancelTo?: string }) {
  const hydrated = useHydrated()
  return (
    <div className="flex gap-2">
      <Button type="submit" size="sm" disabled={disabled}>
        Guardar
      </Button>
      {onCancel && hydrated ? (
        <Button type="button" size="sm" variant="ghost" onClick={onCancel}>
          Cancelar
        </Button>
      ) : null}
      {cancelTo && !hydrated ? (
        <Button asChild size="sm" variant="ghost">
          <a href={cancelTo}>Cancelar</a>
        </Button>
      ) : null}
    </div>
  )
}
