import { z } from 'zod'

// Zod compiles validators with `new Function` when it can, and finds out by trying: our CSP
// forbids eval, so every page with a form reported a violation. Interpreted validation is
// plenty fast for forms. Here rather than in the root, so pages without forms load no Zod.
z.config({ jitless: true })

/** Conform's Zod parser; forms import it from here so the setting above is always applied. */
export { parseWithZod } from '@conform-to/zod/v4'
