/**
 * Starts the app's JavaScript only once the browser has painted the server's HTML.
 *
 * React Router puts a `<link rel="modulepreload">` for every chunk in the head and boots from
 * an async module script: on a fast connection all of it arrives, and is evaluated, before the
 * first paint, so a phone shows nothing until about 200 kB of JavaScript has run. The page is
 * complete without it (server-rendered, styles inlined), so we let it paint first: the preload
 * links and the boot script are renamed to types the browser ignores, and a small script
 * restores them after the first frame. If React Router's markup ever changes so that the boot
 * script is not found, the page is sent untouched (eager, as before), never broken.
 */
const MODULE_PRELOAD = '<link rel="modulepreload"'
const DEFERRED_PRELOAD = 'x-deferred-modulepreload'
const BOOT_MODULE = ' type="module" async="">'
const DEFERRED_MODULE = 'x-deferred-module'

/** Runs after the next frame is painted (a timeout queued from requestAnimationFrame), or after 1 s in a background tab. */
const RESTORE_AFTER_PAINT = `(function(){var d=document,started=false;function boot(){if(started)return;started=true;
d.querySelectorAll('link[rel="${DEFERRED_PRELOAD}"]').forEach(function(l){var n=d.createElement('link');n.rel='modulepreload';n.href=l.getAttribute('href');d.head.appendChild(n)});
d.querySelectorAll('script[type="${DEFERRED_MODULE}"]').forEach(function(s){var n=d.createElement('script');n.type='module';n.nonce=s.nonce;n.textContent=s.textContent;s.after(n)})}
requestAnimationFrame(function(){setTimeout(boot,0)});setTimeout(boot,1000)})()`

const preloadDeferred = Buffer.from(`<link rel="${DEFERRED_PRELOAD}"`)
const moduleDeferred = Buffer.from(` type="${DEFERRED_MODULE}">`)

/**
 * Works on the rendered bytes, never decoding the document to a string: a feed page is about
 * 180 kB, and decoding and re-encoding it was a tenth of the server's CPU time under load.
 */
export function deferScriptsUntilPainted(html: Buffer<ArrayBuffer>, nonce: string): Buffer<ArrayBuffer> {
  const bodyEnd = html.lastIndexOf('</body>')
  const boot = html.indexOf(BOOT_MODULE)
  // The boot module is React Router's one `<script … type="module" async="">` in the body.
  const scriptStart = boot < 0 ? -1 : html.lastIndexOf('<script', boot)
  if (bodyEnd < 0 || boot < 0 || boot > bodyEnd || scriptStart < 0 || html.subarray(scriptStart, boot).includes('>')) return html
  const parts: Buffer[] = []
  let from = 0
  for (let link = html.indexOf(MODULE_PRELOAD); link >= 0 && link < bodyEnd; link = html.indexOf(MODULE_PRELOAD, from)) {
    parts.push(html.subarray(from, link), preloadDeferred)
    from = link + MODULE_PRELOAD.length
  }
  if (boot < from) return html
  parts.push(html.subarray(from, boot), moduleDeferred, html.subarray(boot + BOOT_MODULE.length, bodyEnd))
  parts.push(Buffer.from(`<script nonce="${nonce}">${RESTORE_AFTER_PAINT}</script>`), html.subarray(bodyEnd))
  return Buffer.concat(parts)
}
