import { XIcon } from 'lucide-react'
import { useEffect, useRef, useState, useSyncExternalStore } from 'react'
import type { Message, Result } from '~/platform/http/result'
import { cn } from './cn'

type Toast = { id: number; type: 'success' | 'error' | 'info'; title: string; description?: string }

/** Enough to read; errors stay longer. Hovering or focusing a toast keeps it. */
const SHOWN_MS = { success: 5000, info: 5000, error: 8000 }
const MAX_SHOWN = 3

let toasts: Toast[] = []
let nextId = 1
const listeners = new Set<() => void>()
const emit = () => listeners.forEach((listener) => listener())
const subscribe = (listener: () => void) => {
  listeners.add(listener)
  return () => listeners.delete(listener)
}
const noToasts: Toast[] = []

function dismiss(id: number) {
  toasts = toasts.filter((t) => t.id !== id)
  emit()
}

export function showToast(message: Message, fallback: 'success' | 'error' = 'success') {
  const toast = { id: nextId++, type: message.type ?? fallback, title: message.title, description: message.description }
  toasts = [...toasts, toast].slice(-MAX_SHOWN)
  emit()
}

/**
 * The page's toasts, under the fixed top bar so they never hide the navigation. The list is a
 * polite live region that exists before any toast, so screen readers announce each one; an
 * error is an alert.
 */
export function Toaster() {
  const shown = useSyncExternalStore(
    subscribe,
    () => toasts,
    () => noToasts,
  )
  return (
    <section aria-label="Avisos" className="pointer-events-none fixed inset-x-0 top-[72px] z-50 flex justify-center px-4 sm:top-[76px]">
      {/* Not a list: each toast is a status or an alert, roles a list item cannot take. */}
      <div aria-live="polite" className="flex w-full max-w-sm flex-col gap-2">
        {shown.map((toast) => (
          <ToastItem key={toast.id} toast={toast} />
        ))}
      </div>
    </section>
  )
}

function ToastItem({ toast }: { toast: Toast }) {
  const [held, setHeld] = useState(false)
  useEffect(() => {
    if (held) return
    const timer = setTimeout(() => dismiss(toast.id), SHOWN_MS[toast.type])
    return () => clearTimeout(timer)
  }, [held, toast])
  return (
    <div
      data-toast={toast.type}
      role={toast.type === 'error' ? 'alert' : 'status'}
      onMouseEnter={() => setHeld(true)}
      onMouseLeave={() => setHeld(false)}
      onFocus={() => setHeld(true)}
      onBlur={() => setHeld(false)}
      className={cn(
        'pointer-events-auto flex items-start gap-3 rounded-lg border px-4 py-3 text-sm shadow-lg',
        toast.type === 'error' && 'border-red-200 bg-red-50 text-red-900',
        toast.type === 'success' && 'border-emerald-200 bg-emerald-50 text-emerald-900',
        toast.type === 'info' && 'border-sky-200 bg-sky-50 text-sky-900',
      )}
    >
      <div className="min-w-0 flex-1 break-words">
        <p className="font-medium">{toast.title}</p>
        {toast.description ? <p className="mt-0.5 opacity-90">{toast.description}</p> : null}
      </div>
      <button
        type="button"
        onClick={() => dismiss(toast.id)}
        aria-label="Cerrar aviso"
        className="-m-1 rounded p-1 opacity-70 hover:opacity-100 focus-visible:outline-2 focus-visible:outline-current"
      >
        <XIcon aria-hidden className="size-4" />
      </button>
    </div>
  )
}

/**
 * Shows a fetcher's result once as a toast (docs/decisions/0012): a success's message if it
 * has one, a failure's always. `onSuccess` runs once per successful result, `onError` once per failure.
 */
/** Results already told: one toast per result, however many components read it (a keyed fetcher's data). */
const told = new WeakSet<object>()

export function useResultToast<T extends object>(
  state: 'idle' | 'loading' | 'submitting',
  result: Result<T> | undefined,
  { onSuccess, onError }: { onSuccess?: (result: Extract<Result<T>, { ok: true }>) => void; onError?: () => void } = {},
) {
  const onSuccessRef = useRef(onSuccess)
  const onErrorRef = useRef(onError)
  useEffect(() => {
    onSuccessRef.current = onSuccess
    onErrorRef.current = onError
  })
  useEffect(() => {
    // Also while the page revalidates after the action: by the time it is idle again, the
    // element that posted (a deleted post) may be gone.
    if (state === 'submitting' || !result || told.has(result)) return
    told.add(result)
    if (result.ok) {
      if (result.message) showToast(result.message)
      onSuccessRef.current?.(result as Extract<Result<T>, { ok: true }>)
    } else {
      showToast(result.message, 'error')
      onErrorRef.current?.()
    }
  }, [state, result])
}
