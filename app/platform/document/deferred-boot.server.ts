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
const MODULE_PRELOAD = /<link rel="modulepreload"/g
const BOOT_MODULE = /<script([^>]*) type="module" async="">/
const DEFERRED_PRELOAD = 'x-deferred-modulepreload'
const DEFERRED_MODULE = 'x-deferred-module'

/** Runs after the next frame is painted (a timeout queued from requestAnimationFrame), or after 1 s in a background tab. */
const RESTORE_AFTER_PAINT = `(function(){var d=document,started=false;function boot(){if(started)return;started=true;
d.querySelectorAll('link[rel="${DEFERRED_PRELOAD}"]').forEach(function(l){var n=d.createElement('link');n.rel='modulepreload';n.href=l.getAttribute('href');d.head.appendChild(n)});
d.querySelectorAll('script[type="${DEFERRED_MODULE}"]').forEach(function(s){var n=d.createElement('script');n.type='module';n.nonce=s.nonce;n.textContent=s.textContent;s.after(n)})}
requestAnimationFrame(function(){setTimeout(boot,0)});setTimeout(boot,1000)})()`

export function deferScriptsUntilPainted(html: string, nonce: string) {
  const bodyEnd = html.lastIndexOf('</body>')
  if (bodyEnd < 0 || !BOOT_MODULE.test(html)) return html
  const restore = `<script nonce="${nonce}">${RESTORE_AFTER_PAINT}</script>`
  const deferred = html
    .slice(0, bodyEnd)
    .replace(MODULE_PRELOAD, `<link rel="${DEFERRED_PRELOAD}"`)
    .replace(BOOT_MODULE, `<script$1 type="${DEFERRED_MODULE}">`)
  return `${deferred}${restore}${html.slice(bodyEnd)}`
}
