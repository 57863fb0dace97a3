// Types of scripts/pg.mjs for the TypeScript that starts a throw-away cluster (bench/subjects.ts).
export function findPgBin(): string | null
export function startThrowawayPostgres(bin: string): Promise<{ url: string; stop(): void }>
export function postgresForTests(env: Record<string, string | undefined>): Promise<{ url: string; stop(): void } | null>
