import pino from 'pino'
import { currentRequestId } from './http/request-context.server'

export const logger = pino({
  level: process.env.LOG_LEVEL ?? (process.env.NODE_ENV === 'test' ? 'silent' : 'info'),
  base: undefined,
  redact: ['password', '*.password', 'token', '*.token', 'headers.cookie'],
  mixin: () => {
    const requestId = currentRequestId()
    return requestId ? { requestId } : {}
  },
})
