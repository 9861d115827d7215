import { useEffect, useRef } from 'react'
import { toast } from 'sonner'
import type { Message, Result } from '~/platform/http/result'

export function showToast(message: Message, fallback: 'success' | 'error' = 'success') {
  const type = message.type ?? fallback
  const show = type === 'error' ? toast.error : type === 'info' ? toast.info : toast.success
  show(message.title, { description: message.description })
}

/**
 * Shows a fetcher's result once as a toast (docs/decisions/0012): a success's message if it
 * has one, a failure's always. `onSuccess` runs once per successful result.
 */
export function useResultToast<T extends object>(
  state: 'idle' | 'loading' | 'submitting',
  result: Result<T> | undefined,
  { onSuccess }: { onSuccess?: (result: Extract<Result<T>, { ok: true }>) => void } = {},
) {
  const handled = useRef<Result<T> | undefined>(undefined)
  const onSuccessRef = useRef(onSuccess)
  useEffect(() => {
    onSuccessRef.current = onSuccess
  })
  useEffect(() => {
    // Also while the page revalidates after the action: by the time it is idle again, the
    // element that posted (a deleted post) may be gone.
    if (state === 'submitting' || !result || handled.current === result) return
    handled.current = result
    if (result.ok) {
      if (result.message) showToast(result.message)
      onSuccessRef.current?.(result as Extract<Result<T>, { ok: true }>)
    } else {
      showToast(result.message, 'error')
    }
  }, [state, result])
}
