/** The session cookie's value as sent (`token.signature`, URL-encoded), or undefined: what identifies a sign-in. */
export function sessionCookieOf(request: Pick<Request, 'headers'>) {
  return /(?:^|;\s*)(?:__Secure-)?better-auth\.session_token=([^;]+)/.exec(request.headers.get('cookie') ?? '')?.[1]
}
