/**
 * Registers the service worker (sw.js, built by server/service-worker.ts) once the page is
 * loaded and the browser is idle: it never competes with the first load, and the first load's
 * JavaScript grows by these few lines only. Not in development, where Vite serves the files.
 */
export function registerServiceWorker() {
  if (!import.meta.env.PROD || !('serviceWorker' in navigator)) return
  const register = () => {
    navigator.serviceWorker.register('/sw.js', { scope: '/', updateViaCache: 'none' }).catch(() => {
      // A browser that refuses (private mode, a policy) keeps the site as it was without one.
    })
  }
  const whenIdle = () =>
    'requestIdleCallback' in window ? window.requestIdleCallback(register, { timeout: 5000 }) : setTimeout(register, 1000)
  if (document.readyState === 'complete') whenIdle()
  else window.addEventListener('load', whenIdle, { once: true })
}
