import { getEnv } from '~/platform/env.server'
import { localVideoProvider } from './local-video.server'
import { muxProvider } from './mux.server'
import type { VideoProvider } from './video-provider.types'

let provider: VideoProvider | undefined

/**
 * Mux when MUX_TOKEN_ID is set, else the app itself. Both modules are loaded anyway (every process
 * runs their jobs); the Mux SDK is not, until muxClient() first needs it.
 */
export function getVideoProvider(): VideoProvider {
  provider ??= getEnv().MUX_TOKEN_ID ? muxProvider(getEnv()) : localVideoProvider()
  return provider
}

/** Tests swap the provider. */
export function setVideoProvider(next: VideoProvider | undefined) {
  provider = next
}
