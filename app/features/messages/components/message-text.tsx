import { Fragment } from 'react'

// http(s) links and bare www. addresses; the trailing punctuation of a sentence is not part of them.
const LINK = /\b(https?:\/\/[^\s<>"]+|www\.[^\s<>"]+)/gi
const TRAILING = /[.,;:!?¡¿)\]}'"»]+$/

/**
 * A message as its sender typed it: text only (React escapes it, so no HTML ever renders), line
 * breaks kept by the CSS, and web links clickable with rel="nofollow ugc noopener" (issue 41).
 */
export function MessageText({ body }: { body: string }) {
  const parts: Array<string | { href: string; text: string }> = []
  let last = 0
  for (const match of body.matchAll(LINK)) {
    const raw = match[0]
    const text = raw.replace(TRAILING, '')
    const start = match.index
    if (start > last) parts.push(body.slice(last, start))
    const href = text.toLowerCase().startsWith('www.') ? `https://${text}` : text
    parts.push(safeHref(href) ? { href, text } : text)
    last = start + text.length
  }
  if (last < body.length) parts.push(body.slice(last))
  return (
    <span className="whitespace-pre-wrap break-words">
      {parts.map((part, index) =>
        typeof part === 'string' ? (
          <Fragment key={index}>{part}</Fragment>
        ) : (
          <a key={index} href={part.href} rel="nofollow ugc noopener" target="_blank" className="underline underline-offset-2">
            {part.text}
          </a>
        ),
      )}
    </span>
  )
}

function safeHref(href: string) {
  try {
    const url = new URL(href)
    return (url.protocol === 'http:' || url.protocol === 'https:') && Boolean(url.hostname)
  } catch {
    return false
  }
}
