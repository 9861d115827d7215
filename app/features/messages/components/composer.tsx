import { useEffect, useRef, useState } from 'react'
import { useFetcher } from 'react-router'
import type { Result } from '~/platform/http/result'
import { Button } from '~/ui/button'
import { MESSAGE_BODY_MAX, MESSAGES } from '../limits'

type SendResult = Result<{ conversationId: string; messageId: string; key: string }>

/**
 * 'Escribe un mensaje…' and 'Enviar'. The idempotency key is made when the message is first typed
 * and kept until it is stored: a post whose answer was lost is sent again with the same key and
 * stored once. A message that fails stays in the box with its error. Enter sends, Shift+Enter
 * breaks a line. Without JavaScript the same form posts and the page comes back (the key is the
 * server's, `fallbackKey`; the text comes back with a refusal).
 */
export function Composer({
  conversationId,
  recipientId,
  fallbackKey,
  initialText = '',
  onSent,
}: {
  conversationId?: string
  recipientId?: string
  fallbackKey: string
  initialText?: string
  onSent?: (result: { conversationId: string }) => void
}) {
  const fetcher = useFetcher<SendResult>()
  const [text, setText] = useState(initialText)
  const [key, setKey] = useState<string | null>(null)
  const [error, setError] = useState<string | null>(null)
  const form = useRef<HTMLFormElement>(null)
  const handled = useRef<unknown>(null)

  useEffect(() => {
    if (fetcher.state !== 'idle' || !fetcher.data || handled.current === fetcher.data) return
    handled.current = fetcher.data
    if (fetcher.data.ok) {
      setText('')
      setKey(null)
      setError(null)
      onSent?.({ conversationId: fetcher.data.conversationId })
    } else {
      const { title, description } = fetcher.data.message
      setError(description ? `${title} — ${description}` : title)
    }
  }, [fetcher.state, fetcher.data, onSent])

  const sending = fetcher.state !== 'idle'
  const currentKey = key ?? fallbackKey
  return (
    <fetcher.Form
      ref={form}
      method="post"
      className="grid gap-2"
      onSubmit={(event) => {
        if (!text.trim() || sending) event.preventDefault()
        setError(null)
      }}
    >
      <input type="hidden" name="intent" value="send" />
      {conversationId ? <input type="hidden" name="conversationId" value={conversationId} /> : null}
      {recipientId ? <input type="hidden" name="recipientId" value={recipientId} /> : null}
      <input type="hidden" name="key" value={currentKey} />
      <label htmlFor="message-body" className="sr-only">
        Mensaje
      </label>
      <textarea
        id="message-body"
        name="body"
        required
        rows={3}
        maxLength={MESSAGE_BODY_MAX}
        placeholder={MESSAGES.placeholder}
        value={text}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? 'message-error' : undefined}
        onChange={(event) => {
          setText(event.target.value)
          // The key belongs to this message from its first character on.
          if (!key) setKey(crypto.randomUUID())
        }}
        onKeyDown={(event) => {
          if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
            event.preventDefault()
            form.current?.requestSubmit()
          }
        }}
        className="min-h-20 w-full resize-y rounded-md border border-input bg-background px-3 py-2 text-sm focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
      />
      {error ? (
        <p id="message-error" role="alert" className="text-sm text-destructive">
          {error}
        </p>
      ) : null}
      <div className="flex items-center justify-between gap-3">
        <p className="text-xs text-muted-foreground">Intro envía · Mayús+Intro, nueva línea</p>
        <Button type="submit" disabled={sending}>
          {MESSAGES.send}
        </Button>
      </div>
    </fetcher.Form>
  )
}
