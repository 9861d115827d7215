// Types of memory.js for the TypeScript tests that import it.
export const DEFAULT_MEMORY_LIMIT_MB: number
export function memoryLimit(env?: Record<string, string | undefined>): number
export function memoryFlags(env?: Record<string, string | undefined>, execArgv?: string[], processes?: number): string[]
