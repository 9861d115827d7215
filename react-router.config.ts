import type { Config } from '@react-router/dev/config'

export default {
  ssr: true,
  // The whole route manifest ships with the first page (a few dozen routes). With lazy
  // discovery, a fetcher that loads a not-yet-known URL (the comments of a post) is first
  // matched to the catch-all 404 route and its answer can overwrite the real one.
  routeDiscovery: { mode: 'initial' },
} satisfies Config
