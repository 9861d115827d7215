import { type SetStateAction, useCallback, useEffect, useState } from 'react'

/**
 * Events of the page's one server-sent-event stream (opened by the bell) for the rest of the
 * page: a post's counters, moved by other members' likes and comments.
 */
export interface PostStats {
  postId: string
  likeCount: number
  commentCount: number
  /** When this page received it (to tell it from an older answer of its own). */
  at: number
}

const listeners = new Set<(stats: PostStats) => void>()

export function emitPostStats(stats: Omit<PostStats, 'at'>) {
  const event = { ...stats, at: Date.now() }
  for (const listener of listeners) listener(event)
}

/**
 * The latest counters the stream reported for this post since the page's own data last changed
 * (`base`, e.g. the counters the loader gave), or null when there are none newer.
 */
export function useLivePostStats(postId: string, base: string) {
  const [latest, setLatest] = useState<{ base: string; stats: PostStats } | null>(null)
  useEffect(() => {
    const listener = (stats: PostStats) => {
      if (stats.postId === postId) setLatest({ base, stats })
    }
    listeners.add(listener)
    return () => {
      listeners.delete(listener)
    }
  }, [postId, base])
  return latest?.base === base ? latest.stats : null
}

/** A private message arrived for this member (issue 41): the top bar's count and an open conversation follow. */
const messageListeners = new Set<(event: { conversationId: string }) => void>()

export function emitMessage(event: { conversationId: string }) {
  for (const listener of messageListeners) listener(event)
}

export function onMessage(listener: (event: { conversationId: string }) => void) {
  messageListeners.add(listener)
  return () => {
    messageListeners.delete(listener)
  }
}

/**
 * A top-bar count (the bell's, the messages link's): the count the page's data brought, moved by
 * what the live stream announces and what the member does, until the data brings a new one, which
 * wins. Followed while rendering (React's way to follow new data), not in an effect keyed on it:
 * such an effect was seen not to run, leaving the bell on its old count.
 */
export function useLiveCount(initial: number) {
  const [state, setState] = useState({ base: initial, count: initial })
  if (state.base !== initial) setState({ base: initial, count: initial })
  const count = state.base === initial ? state.count : initial
  const setCount = useCallback(
    (next: SetStateAction<number>) =>
      setState((current) => ({ ...current, count: typeof next === 'function' ? next(current.count) : next })),
    [],
  )
  return [count, setCount] as const
}
