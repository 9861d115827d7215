import { Camera, Loader2 } from 'lucide-react'
import { useCallback, useId, useRef, useState } from 'react'
import Cropper, { type Area } from 'react-easy-crop'
import { useRevalidator } from 'react-router'
import { toast } from 'sonner'
import { Button } from '~/components/ui/button'
import { Dialog, DialogContent, DialogDescription, DialogTitle } from '~/components/ui/dialog'
import { UserAvatar } from '~/components/user-avatar'
import { AVATAR_ERRORS, AVATAR_MAX_BYTES } from '~/utils/profile-schemas'

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

export function AvatarUploader({ avatarUrl, email, name }: { avatarUrl: string | null; email: string; name: string }) {
  const inputId = useId()
  const inputRef = useRef<HTMLInputElement>(null)
  const revalidator = useRevalidator()
  const [source, setSource] = useState<{ url: string; name: string } | null>(null)
  const [crop, setCrop] = useState({ x: 0, y: 0 })
  const [zoom, setZoom] = useState(1)
  const [area, setArea] = useState<Area | null>(null)
  const [uploading, setUploading] = useState(false)

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
      toast.error(AVATAR_ERRORS.notImage)
      if (inputRef.current) inputRef.current.value = ''
      return
    }
    if (file.size > AVATAR_MAX_BYTES) {
      toast.error(AVATAR_ERRORS.tooLarge)
      if (inputRef.current) inputRef.current.value = ''
      return
    }
    reset()
    setSource({ url: URL.createObjectURL(file), name: file.name })
  }

  async function upload() {
    if (!source || !area) return
    setUploading(true)
    try {
      const blob = await cropToCircle(source.url, area)
      const body = new FormData()
      const baseName = source.name.replace(/\.[^.]*$/, '') || 'avatar'
      body.append('avatar', blob, `cropped_${baseName}.png`)
      const response = await fetch('/perfil/avatar', { method: 'POST', body, headers: { Accept: 'application/json' } })
      const result = (await response.json().catch(() => null)) as { ok: boolean; error?: string } | null
      if (!response.ok || !result?.ok) throw new Error(result?.error ?? AVATAR_ERRORS.failed)
      toast.success('Foto de perfil actualizada')
      close()
      await revalidator.revalidate()
    } catch (error) {
      toast.error(error instanceof Error && error.message !== 'canvas' ? error.message : AVATAR_ERRORS.failed)
    } finally {
      setUploading(false)
    }
  }

  return (
    <div className="flex flex-col items-center gap-4 sm:flex-row">
      <UserAvatar avatarUrl={avatarUrl} email={email} name={name} className="size-24 text-3xl" />
      {/* Without JavaScript the form uploads the original; the server crops it to a square. */}
      <form method="post" action="/perfil/avatar" encType="multipart/form-data" className="grid gap-2">
        <label htmlFor={inputId} className="text-sm font-medium">
          Foto profesional
        </label>
        <input
          ref={inputRef}
          id={inputId}
          name="avatar"
          type="file"
          accept="image/png,image/jpeg,image/webp,image/gif"
          className="max-w-64 text-sm file:mr-3 file:rounded-md file:border-0 file:bg-secondary file:px-3 file:py-2 file:text-sm file:font-medium"
          onChange={(event) => onFileChosen(event.currentTarget.files?.[0])}
        />
        <p className="text-xs text-muted-foreground">JPG, PNG, WebP o GIF, hasta 5 MB.</p>
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
