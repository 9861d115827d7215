// Types of metrics-server.js for the TypeScript tests that import it.
import type http from 'node:http'

export function metricsAddress(env?: Record<string, string | undefined>): { port: number; host: string } | null
export function serveMetrics(
  address: { port: number; host: string },
  read: () => Promise<{ contentType: string; body: string }>,
): Promise<http.Server>
