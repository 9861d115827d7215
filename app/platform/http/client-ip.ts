/** Set by the Express server from the socket (or a trusted proxy), replacing any client value. */
export const CLIENT_IP_HEADER = 'x-app-client-ip'

export function clientIp(request: Request) {
  return request.headers.get(CLIENT_IP_HEADER) ?? 'unknown'
}
