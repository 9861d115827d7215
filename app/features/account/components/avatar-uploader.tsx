import { Camera, Loader2 } from 'lucide-react'
import { type ComponentProps, type ComponentType, type JSX, useCallback, useEffect, useEffectEvent, useId, useRef, useState } from 'react'
import type EasyCrop from 'react-easy-crop'
import type { Area } from 'react-easy-crop'
import { useFetcher } from 'react-router'
import type { Result } from '~/platform/http/result'
import { Button } from '~/ui/button'
import { Dialog, DialogContent, DialogDescription, DialogTitle } from '~/ui/dialog'
import { lazyPart } from '~/ui/lazy-part'
import { showToast, useResultToast } from '~/ui/toast'
import { UserAvatar } from '~/ui/user-avatar'
import { AVATAR_ERRORS, AVATAR_MAX_BYTES } from '../profile-schemas'

// The cropper loads when a member picks a photo, not with the profile page.
const Cropper = lazyPart(
  // Typed as JSX sees it: the props its defaultProps supply are optional.
  () =>
    import('react-easy-crop').then(
      (module) => module.default as ComponentType<JSX.LibraryManagedAttributes<typeof EasyCrop, ComponentProps<typeof EasyCrop>>>,
    ),
  <Loader2 className="absolute inset-0 m-auto size-6 animate-spin text-muted-foreground" aria-label="Cargando el recorte" />,
)

// Spec: circular crop, zoom 50%–300% in steps of 0.1, a 400×400 PNG result.
const MIN_ZOOM = 0.5
const MAX_ZOOM = 3
const ZOOM_STEP = 0.1
const OUTPUT_SIZE = 400

async function cropToCircle(imageUrl: string, area: Area): Promise<Blob> {
  const image = new Image()
  image.src = imageUrl
  await image.decode()
  const canvas = document.createElement('canvas')
  canvas.width = OUTPUT_SIZE
  canvas.height = OUTPUT_SIZE
  const context = canvas.getContext('2d')!
  context.beginPath()
  context.arc(OUTPUT_SIZE / 2, OUTPUT_SIZE / 2, OUTPUT_SIZE / 2, 0, Math.PI * 2)
  context.clip()
  context.drawImage(image, area.x, area.y, area.width, area.height, 0, 0, OUTPUT_SIZE, OUTPUT_SIZE)
  return new Promise((resolve, reject) => canvas.toBlob((blob) => (blob ? resolve(blob) : reject(new Error('canvas'))), 'image/png'))
}

export function AvatarUploader({ avatarUrl, name }: { avatarUrl: string | null; name: string }) {
  const inputId = useId()
  const inputRef = useRef<HTMLInputElement>(null)
  const fetcher = useFetcher<Result<{ avatarUrl: string }>>()
  const [source, setSource] = useState<{ url: string; name: string } | null>(null)
  const [crop, setCrop] = useState({ x: 0, y: 0 })
  const [zoom, setZoom] = useState(1)
  const [area, setArea] = useState<Area | null>(null)
  const [cropping, setCropping] = useState(false)
  const uploading = cropping || fetcher.state !== 'idle'

  const close = useCallback(() => {
    if (source) URL.revokeObjectURL(source.url)
    setSource(null)
    if (inputRef.current) inputRef.current.value = ''
  }, [source])

  const reset = () => {
    setCrop({ x: 0, y: 0 })
    setZoom(1)
  }

  function onFileChosen(file: File | undefined) {
    if (!file) return
    if (!file.type.startsWith('image/')) {
      showToast({ title: AVATAR_ERRORS.notImage }, 'error')
      if (inputRef.current) inputRef.current.value = ''
      return
    }
    if (file.size > AVATAR_MAX_BYTES) {
      showToast({ title: AVATAR_ERRORS.tooLarge }, 'error')
      if (inputRef.current) inputRef.current.value = ''
      return
    }
    reset()
    setSource({ url: URL.createObjectURL(file), name: file.name })
  }

  // A photo picked before the page's scripts ran (a slow phone) fired no change event React saw:
  // it is still in the input, so it goes on to the crop dialog now.
  const takeEarlyChoice = useEffectEvent(() => onFileChosen(inputRef.current?.files?.[0]))
  useEffect(() => takeEarlyChoice(), [])

  useResultToast(fetcher.state, fetcher.data, { onSuccess: close })

  async function upload() {
    if (!source || !area) return
    setCropping(true)
    try {
      const blob = await cropToCircle(source.url, area)
      const body = new FormData()
      body.append('intent', 'avatar')
      body.append('avatar', blob, `cropped_${source.name.replace(/\.[^.]*$/, '') || 'avatar'}.png`)
      await fetcher.submit(body, { method: 'post', action: '/perfil', encType: 'multipart/form-data' })
    } catch {
      showToast({ title: AVATAR_ERRORS.failed }, 'error')
    } finally {
      setCropping(false)
    }
  }

  return (
    <div className="flex flex-col items-center gap-4 sm:flex-row">
      <UserAvatar avatarUrl={avatarUrl} name={name} className="size-24 text-3xl" />
      {/* Without JavaScript the form uploads the original; the server crops it to a square. */}
      <form method="post" action="/perfil" encType="multipart/form-data" className="grid gap-2">
        <input type="hidden" name="intent" value="avatar" />
        <span className="text-sm font-medium">Foto profesional</span>
        {/* The browser's own button would say 'Choose file' in its language: a Spanish one instead. */}
        <input
          ref={inputRef}
          id={inputId}
          name="avatar"
          type="file"
          accept="image/png,image/jpeg,image/webp,image/gif"
          className="peer sr-only"
          aria-label="Foto profesional"
          aria-describedby={`${inputId}-help`}
          onChange={(event) => onFileChosen(event.currentTarget.files?.[0])}
        />
        <label
          htmlFor={inputId}
          className="inline-flex h-9 w-fit cursor-pointer items-center gap-2 rounded-md bg-secondary px-3 text-sm font-medium hover:bg-secondary/80 peer-focus-visible:ring-2 peer-focus-visible:ring-ring [&_svg]:size-4"
        >
          <Camera aria-hidden /> {avatarUrl ? 'Cambiar foto' : 'Elegir foto'}
        </label>
        <p id={`${inputId}-help`} className="text-xs text-muted-foreground">
          JPG, PNG, WebP o GIF, hasta 5 MB.
        </p>
        <noscript>
          <Button type="submit" size="sm" variant="outline">
            <Camera aria-hidden /> Subir foto
          </Button>
        </noscript>
      </form>

      <Dialog open={source !== null} onOpenChange={(open) => (open ? null : close())}>
        <DialogContent className="max-w-md">
          <DialogTitle>Ajusta tu foto</DialogTitle>
          <DialogDescription>Arrastra para encuadrar y usa el control para acercar o alejar.</DialogDescription>
          <div className="relative mx-auto size-[300px] max-w-full overflow-hidden rounded-lg bg-muted">
            {source ? (
              <Cropper
                image={source.url}
                crop={crop}
                zoom={zoom}
                minZoom={MIN_ZOOM}
                maxZoom={MAX_ZOOM}
                zoomSpeed={ZOOM_STEP}
                aspect={1}
                cropShape="round"
                showGrid={false}
                restrictPosition={false}
                onCropChange={setCrop}
                onZoomChange={setZoom}
                onCropComplete={(_, pixels) => setArea(pixels)}
              />
            ) : null}
          </div>
          <label className="grid gap-2 text-sm font-medium">
            Zoom: {Math.round(zoom * 100)}%
            <input
              type="range"
              min={MIN_ZOOM}
              max={MAX_ZOOM}
              step={ZOOM_STEP}
              value={zoom}
              onChange={(event) => setZoom(Number(event.currentTarget.value))}
              className="accent-primary"
            />
          </label>
          <div className="flex flex-wrap justify-end gap-2">
            <Button type="button" variant="ghost" onClick={reset} disabled={uploading}>
              Resetear
            </Button>
            <Button type="button" variant="outline" onClick={close} disabled={uploading}>
              Cancelar
            </Button>
            <Button type="button" onClick={upload} disabled={uploading || !area}>
              {uploading ? <Loader2 className="animate-spin" aria-hidden /> : null}
              {uploading ? 'Subiendo...' : 'Usar imagen'}
            </Button>
          </div>
        </DialogContent>
      </Dialog>
    </div>
  )
}
