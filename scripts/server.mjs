/**
 * How the server process is started: by `npm start`, `npm run dev`, the tests that run it as a
 * process of its own, and the upload bench, so they all run what production runs.
 *
 * --heap-growing-percent=50: after a full collection V8 lets a heap grow to as much as 4× what
 * that collection kept before it collects again. An upload's garbage is then what sets the
 * server's peak: a 100,000-row xlsx upload's main-thread heap ended 12 MB above its start yet
 * peaked 90–190 MB above it. At 1.5× the bench's upload peaked at 384–391 MB instead of
 * 424–440 MB, in the same time (the flag is the process's: the reader thread's heap too).
 */
export const serverNodeFlags = ['--heap-growing-percent=50']

/** Node's arguments for the server: its flags, any of the caller's (`--watch`, a heap cap), then the entry. */
export const serverArgs = (extra = []) => [...serverNodeFlags, ...extra, '--import', 'tsx', 'server/main.ts']
