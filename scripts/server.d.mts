// Types of scripts/server.mjs for the TypeScript that starts the server as a process.
export const serverNodeFlags: readonly string[]
export function serverArgs(extra?: readonly string[]): string[]
