/* The service worker (issue 42, docs/decisions/0035). Built by server/service-worker.ts into
   build/client/sw.js, which fills BUILD_ID and PRECACHE: a new build is a new worker, so a deploy
   takes over at the next navigation (skipWaiting, clients.claim) and its activation deletes the
   older builds' caches.
   What it caches is never a member's: the build's hashed files (immutable, the same for everyone)
   and the offline page. Pages and `.data` answers always go to the network: a page that fails
   for want of a network is answered with the offline page, never with a copy of one. */
const BUILD_ID = '__BUILD_ID__'
const PRECACHE = /* __PRECACHE__ */ []
const OFFLINE_PAGE = '/offline.html'
const OFFLINE_ICON = '/icons/icon-192.png'
const CACHE = `circulo-${BUILD_ID}`

self.addEventListener('install', (event) => {
  event.waitUntil(
    caches
      .open(CACHE)
      .then((cache) => cache.addAll([OFFLINE_PAGE, OFFLINE_ICON, ...PRECACHE]))
      .then(() => self.skipWaiting()),
  )
})

self.addEventListener('activate', (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((names) => Promise.all(names.filter((name) => name !== CACHE).map((name) => caches.delete(name))))
      .then(() => self.clients.claim()),
  )
})

self.addEventListener('fetch', (event) => {
  const request = event.request
  const url = new URL(request.url)
  if (url.origin !== self.location.origin) return
  if (isSignOut(request, url)) return event.respondWith(signOut(request))
  if (request.mode === 'navigate') return event.respondWith(navigate(request))
  // The build's hashed files never change under their name: from the cache when there.
  if (request.method === 'GET' && (url.pathname.startsWith('/assets/') || url.pathname === OFFLINE_ICON)) {
    return event.respondWith(asset(request))
  }
  // Everything else (`.data`, resource routes, uploads, the event stream) is the browser's own business.
})

function isSignOut(request, url) {
  return request.method === 'POST' && (url.pathname === '/logout' || url.pathname === '/logout.data')
}

async function navigate(request) {
  try {
    return await fetch(request)
  } catch {
    const offline = await caches.match(OFFLINE_PAGE)
    return offline ?? Response.error()
  }
}

async function asset(request) {
  // A newer build's worker deleted this build's cache as it took over: opening it here would make
  // it again, an old cache nobody deletes. The few fetches left to this worker go to the network.
  if (!(await caches.has(CACHE))) return fetch(request)
  const cache = await caches.open(CACHE)
  const cached = await cache.match(request)
  if (cached) return cached
  const response = await fetch(request)
  if (response.ok) await cache.put(request, response.clone())
  return response
}

/**
 * Signing out leaves nothing behind but this build's precached shell (the same for everyone), and
 * this browser's push subscription ends: the next member on it gets none of the last one's pushes.
 */
async function signOut(request) {
  const response = await fetch(request)
  const subscription = await self.registration.pushManager?.getSubscription()
  if (subscription) await subscription.unsubscribe().catch(() => false)
  const names = await caches.keys()
  await Promise.all(names.filter((name) => name !== CACHE).map((name) => caches.delete(name)))
  const cache = await caches.open(CACHE)
  const keep = new Set([OFFLINE_PAGE, OFFLINE_ICON, ...PRECACHE].map((path) => new URL(path, self.location.origin).href))
  for (const key of await cache.keys()) if (!keep.has(key.url)) await cache.delete(key)
  return response
}

// Push (features/push): { title, body, url, tag }. The same tag replaces the notification shown
// before it, silently (several likes on one post are one notification, not a stack).
self.addEventListener('push', (event) => {
  let message
  try {
    message = event.data ? event.data.json() : null
  } catch {
    message = null
  }
  if (!message || typeof message.title !== 'string') return
  event.waitUntil(
    self.registration.showNotification(message.title, {
      body: typeof message.body === 'string' ? message.body : '',
      tag: typeof message.tag === 'string' ? message.tag : undefined,
      renotify: false,
      icon: '/icons/icon-192.png',
      badge: '/icons/icon-192.png',
      lang: 'es',
      data: { url: safePath(message.url) },
    }),
  )
})

self.addEventListener('notificationclick', (event) => {
  event.notification.close()
  const url = new URL(safePath(event.notification.data && event.notification.data.url), self.location.origin).href
  event.waitUntil(
    self.clients.matchAll({ type: 'window', includeUncontrolled: true }).then(async (windows) => {
      const same = windows.find((client) => client.url === url)
      if (same) return same.focus()
      const any = windows.find((client) => 'navigate' in client)
      if (any) {
        await any.focus()
        return any.navigate(url)
      }
      return self.clients.openWindow(url)
    }),
  )
})

/** Only a path of this site opens: a push cannot send the member elsewhere. */
function safePath(value) {
  return typeof value === 'string' && value.startsWith('/') && !value.startsWith('//') ? value : '/notificaciones'
}
