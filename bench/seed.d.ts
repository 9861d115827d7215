// For the EXPLAIN test (app/platform/db/list-plans.test.ts), which seeds the bench's script.
export function seedSql(passwordHash: string, scale?: number, counts?: Record<string, number>): string
