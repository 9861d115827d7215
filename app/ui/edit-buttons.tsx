import { Button } from './button'
import { useHydrated } from './use-hydrated'

/**
 * An edit-in-place form's 'Guardar', and its 'Cancelar' once the page runs: before that the form
 * sits in a disclosure, which closes itself.
 */
export function EditButtons({ disabled, onCancel }: { disabled: boolean; onCancel?: () => void }) {
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
    </div>
  )
}
