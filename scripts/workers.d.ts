// Types of workers.js for the TypeScript tests that import it.
export function workerPlan(env?: Record<string, string | undefined>, cores?: number): { workers: number; note: string | null }
