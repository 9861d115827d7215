import { startTransition, StrictMode } from 'react'
import { hydrateRoot } from 'react-dom/client'
import { HydratedRouter } from 'react-router/dom'

function hydrate() {
  startTransition(() => {
    hydrateRoot(
      document,
      <StrictMode>
        <HydratedRouter />
      </StrictMode>,
    )
  })
}

// The server's HTML is the page: let the browser paint it first, then hydrate. A callback
// queued from requestAnimationFrame runs after that frame is painted, so on a slow phone the
// work of hydration never delays the first paint (it only makes the page interactive a frame
// later).
requestAnimationFrame(() => setTimeout(hydrate, 0))
