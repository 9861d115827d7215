import { describe, expect, test } from 'vitest'
import { deferScriptsUntilPainted } from './deferred-boot.server'

// The shape of what React Router's <Scripts> renders (links hoisted to the head by React).
const page = [
  '<!DOCTYPE html><html lang="es"><head><meta charSet="utf-8"/><style nonce="n1">body{}</style>',
  '<link rel="modulepreload" href="/assets/manifest-1.js" nonce="n1"/>',
  '<link rel="modulepreload" href="/assets/entry.client-2.js" nonce="n1"/>',
  '</head><body><main><h1>Hola</h1><p>Texto con &lt;/body&gt; escapado</p></main>',
  '<script nonce="n1">window.__reactRouterContext = {};</script>',
  '<script nonce="n1" type="module" async="">import * as route0 from "/assets/root-3.js";\nimport("/assets/entry.client-2.js");</script>',
  '<script nonce="n1">window.__reactRouterContext.streamController.close();</script></body></html>',
].join('')

describe('scripts start after the first paint', () => {
  const html = deferScriptsUntilPainted(Buffer.from(page), 'n1').toString('utf8')

  test('the preloads and the boot module are renamed to types the browser ignores', () => {
    expect(html).not.toContain('rel="modulepreload"')
    expect(html.match(/rel="x-deferred-modulepreload" href="\/assets\/[^"]+"/g)).toHaveLength(2)
    expect(html).not.toContain('type="module"')
    expect(html).toContain('<script nonce="n1" type="x-deferred-module">import * as route0')
  })

  test('one script with the request nonce restores them, after everything else in the body', () => {
    const restore = html.match(/<script nonce="n1">(\(function\(\)\{[\s\S]*?)<\/script><\/body><\/html>$/)
    expect(restore?.[1]).toContain('requestAnimationFrame')
    expect(restore?.[1]).toContain("n.type='module'")
    // Executable as written (no syntax error).
    expect(() => new Function(restore![1]!)).not.toThrow()
  })

  test('multibyte text around the rewritten parts survives byte for byte', () => {
    const accented = page.replace('<h1>Hola</h1>', '<h1>Sesión “Ñandú” 🚀</h1>')
    expect(deferScriptsUntilPainted(Buffer.from(accented), 'n1').toString('utf8')).toContain('<h1>Sesión “Ñandú” 🚀</h1>')
  })

  test('the rest of the page is untouched', () => {
    expect(html).toContain('<p>Texto con &lt;/body&gt; escapado</p>')
    expect(html).toContain('window.__reactRouterContext.streamController.close();')
    expect(html.startsWith('<!DOCTYPE html><html lang="es"><head><meta charSet="utf-8"/><style nonce="n1">body{}</style>')).toBe(true)
  })

  test('a page without the boot module (other markup, an error text) is sent as it is', () => {
    const other = '<html><body><script type="module">x()</script></body></html>'
    for (const text of [other, 'Not found', '<html><body><script type="module" async="">x()</script><p>ñ</p></html>']) {
      expect(deferScriptsUntilPainted(Buffer.from(text), 'n1').toString('utf8')).toBe(text)
    }
  })
})
