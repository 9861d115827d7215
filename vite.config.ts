import { reactRouter } from '@react-router/dev/vite'
import tailwindcss from '@tailwindcss/vite'
import { defineConfig } from 'vite'
import { precompress } from './server/precompress.ts'
import { serviceWorker } from './server/service-worker.ts'

export default defineConfig(({ isSsrBuild }) => ({
  // The server bundle's entry is our Express app, so server code, the router build
  // and the database client live in one module graph (one PGlite instance per process).
  build: isSsrBuild ? { rollupOptions: { input: './server/app.ts' } } : undefined,
  // lucide-react ships ESM that Node cannot import un-bundled during SSR.
  ssr: { noExternal: ['lucide-react'] },
  resolve: { tsconfigPaths: true },
  // The browser build's files are compressed once, at build time (server/precompress.ts); its
  // service worker knows the build's files (server/service-worker.ts).
  plugins: [tailwindcss(), reactRouter(), ...(isSsrBuild ? [] : [serviceWorker(), precompress()])],
}))
