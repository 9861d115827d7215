import type { LandingImage } from '~/features/site/content'
import { cn } from '~/ui/cn'

/** AVIF first, WebP otherwise; lazy and asynchronous (every landing picture is below the fold). */
export function ResponsivePicture({ image, sizes, className }: { image: LandingImage; sizes: string; className?: string }) {
  const srcSet = (format: 'avif' | 'webp') => image.widths.map((width) => `${image.base}-${width}.${format} ${width}w`).join(', ')
  const largest = image.widths[image.widths.length - 1] ?? image.width
  return (
    <picture>
      <source type="image/avif" srcSet={srcSet('avif')} sizes={sizes} />
      <source type="image/webp" srcSet={srcSet('webp')} sizes={sizes} />
      <img
        src={`${image.base}-${largest}.webp`}
        width={image.width}
        height={image.height}
        alt={image.alt}
        loading="lazy"
        decoding="async"
        className={cn('h-auto w-full', className)}
      />
    </picture>
  )
}
