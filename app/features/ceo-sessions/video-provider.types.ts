/**
 * Where session videos are uploaded, processed and played from. The embedded default is the app
 * itself (local-video.server.ts); Mux when MUX_TOKEN_ID is set (mux.server.ts). Both move a
 * session through the same states (video-state.server.ts) and serve it only to members with
 * access, through an address that expires.
 */
export interface VideoProvider {
  kind: 'local' | 'mux'
  /**
   * Where the browser sends the video, in chunks of 5120 KB by PUT with Content-Range. The caller
   * has checked that the user may create sessions; `origin` is the app's origin (CORS for Mux).
   */
  createUpload(input: { sessionId: string; userId: string; origin: string }): Promise<{ uploadId: string; uploadUrl: string }>
  /** What a member with access plays: an address valid for a short time, or null when not ready. */
  playback(session: PlaybackInput): Promise<Playback | null>
  /** Removes the stored video (the Mux asset, or the file and any unfinished upload). */
  deleteVideo(session: PlaybackInput & { uploadId: string | null; muxAssetId: string | null }): Promise<void>
}

export interface PlaybackInput {
  id: string
  videoKey: string | null
  videoContentType: string | null
  muxPlaybackId: string | null
}

export interface Playback {
  src: string
  /** 'video/mp4', 'video/webm', … or 'application/x-mpegURL' (HLS from Mux). */
  type: string
  /** A poster frame from the provider, when the session has no thumbnail of its own. */
  posterUrl?: string
  expiresAt: Date
}
