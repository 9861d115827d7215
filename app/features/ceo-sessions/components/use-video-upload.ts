import { useEffect, useState } from 'react'
import { useFetcher, useRevalidator } from 'react-router'
import type { Result } from '~/platform/http/result'
import { showToast, useResultToast } from '~/ui/toast'
import { SESSION_MESSAGES, VIDEO_CHUNK_BYTES } from '../limits'

type SessionResult = Result<{ sessionId?: string; uploadUrl?: string | null }>

/** Spec 001 §4, in our order (decisions/0019): the form is saved, then the video is sent. */
export type UploadProgress = { stage: 'idle' } | { stage: 'creating' } | { stage: 'uploading'; percent: number }

/**
 * Saves a session through its form's fetcher, then sends `video` to the upload address the
 * action answered (the app itself or Mux) in 5120 KB chunks, each tried up to 5 times, with its
 * progress. `onDone` runs once the session is saved and its video, if any, has arrived.
 */
export function useVideoUpload({ video, onDone }: { video: File | null; onDone: () => void }) {
  const fetcher = useFetcher<SessionResult>()
  const revalidator = useRevalidator()
  const [progress, setProgress] = useState<UploadProgress>({ stage: 'idle' })

  useResultToast(fetcher.state, fetcher.data, {
    onSuccess: () => {
      const answer = fetcher.data
      if (answer?.ok && answer.uploadUrl && video) void send(answer.uploadUrl, video)
      else finish()
    },
    onError: () => setProgress({ stage: 'idle' }),
  })

  function finish() {
    void revalidator.revalidate()
    onDone()
    setProgress({ stage: 'idle' })
  }

  async function send(endpoint: string, file: File) {
    setProgress({ stage: 'uploading', percent: 0 })
    const { createUpload } = await import('@mux/upchunk')
    const upload = createUpload({ endpoint, file, chunkSize: VIDEO_CHUNK_BYTES.size / 1024, attempts: 5 })
    upload.on('progress', (event: CustomEvent<number>) => setProgress({ stage: 'uploading', percent: Math.floor(event.detail) }))
    upload.on('success', finish)
    upload.on('error', () => {
      setProgress({ stage: 'idle' })
      // The session exists and waits for its video ('Mis sesiones en proceso'); nothing typed is lost.
      showToast({
        type: 'error',
        title: SESSION_MESSAGES.videoUploadFailed,
        description: 'La sesión quedó guardada sin video. Elimínala y vuelve a crearla, o edítala para subir el video de nuevo.',
      })
      void revalidator.revalidate()
    })
  }

  // Leaving the page would cut the upload: the browser asks first.
  useEffect(() => {
    if (progress.stage !== 'uploading') return
    const warn = (event: BeforeUnloadEvent) => event.preventDefault()
    window.addEventListener('beforeunload', warn)
    return () => window.removeEventListener('beforeunload', warn)
  }, [progress.stage])

  return {
    fetcher,
    progress,
    busy: fetcher.state !== 'idle' || progress.stage !== 'idle',
    /** The form is on its way: its answer starts the upload. */
    saving: () => setProgress({ stage: 'creating' }),
  }
}
