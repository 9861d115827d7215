import { useEffect, useRef } from 'react'
import { toast } from 'sonner'
import type { FeedActionData } from './types'

/** Shows a fetcher's answer once as a toast (spec 001 §8 texts); quiet answers are skipped. */
export function useActionToast(
  state: 'idle' | 'loading' | 'submitting',
  result: FeedActionData | undefined,
  { quietSuccess = false, onSuccess }: { quietSuccess?: boolean; onSuccess?: (result: FeedActionData) => void } = {},
) {
  const handled = useRef<FeedActionData | undefined>(undefined)
  const onSuccessRef = useRef(onSuccess)
  onSuccessRef.current = onSuccess
  useEffect(() => {
    if (state !== 'idle' || !result || handled.current === result) return
    handled.current = result
    if (result.ok) {
      if (!quietSuccess) toast.success(result.title, { description: result.description })
      onSuccessRef.current?.(result)
    } else {
      toast.error(result.title === 'Error' && result.description ? result.description : result.title, {
        description: result.title === 'Error' ? undefined : result.description,
      })
    }
  }, [state, result, quietSuccess])
}
