import { seo, site } from '~/features/site/content'

/**
 * Title, description, canonical link, Open Graph and Twitter card for a public page.
 * `origin` is the site's public address (APP_URL), from the route's loader.
 */
export function pageMeta({ origin, path, title, description }: { origin: string; path: string; title: string; description: string }) {
  const url = `${origin}${path}`
  const image = `${origin}${seo.ogImage.path}`
  return [
    { title },
    { name: 'description', content: description },
    { tagName: 'link', rel: 'canonical', href: url },
    { property: 'og:type', content: 'website' },
    { property: 'og:site_name', content: site.name },
    { property: 'og:locale', content: seo.locale },
    { property: 'og:url', content: url },
    { property: 'og:title', content: title },
    { property: 'og:description', content: description },
    { property: 'og:image', content: image },
    { property: 'og:image:type', content: 'image/jpeg' },
    { property: 'og:image:width', content: String(seo.ogImage.width) },
    { property: 'og:image:height', content: String(seo.ogImage.height) },
    { property: 'og:image:alt', content: seo.ogImage.alt },
    { name: 'twitter:card', content: 'summary_large_image' },
    { name: 'twitter:title', content: title },
    { name: 'twitter:description', content: description },
    { name: 'twitter:image', content: image },
    { name: 'twitter:image:alt', content: seo.ogImage.alt },
  ]
}
