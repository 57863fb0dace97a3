/**
 * How the server process is started: by `npm start`, `npm run dev`, the tests that run it as a
 * process of its own, and the upload bench, so they all run what production runs. V8's flags are
 * the process's: they hold for the upload reader's thread too.
 *
 * --heap-growing-percent=50: after a full collection V8 lets a heap grow to as much as 4× what
 * that collection kept before it collects again. An upload's garbage is then what sets the
 * server's peak: a 100,000-row xlsx upload's main-thread heap ended 12 MB above its start yet
 * peaked 90–190 MB above it. Capped at 1.5×, the bench's upload peaked at ~380 MB instead of
 * ~425 MB, in the same time.
 *
 * --no-allocation-site-pretenuring: with the cap alone, 3 xlsx uploads of 4 took 9.3–9.8 s
 * instead of 5.7 s: early in the parse V8 chose to allocate the reader's short-lived cells
 * straight into the old generation, which then filled every ~130 ms (68 full collections, 2.5 s
 * of collecting). Without pretenuring, 11 uploads of 11 took 5.7–6.3 s.
 */
export const serverNodeFlags = ['--heap-growing-percent=50', '--no-allocation-site-pretenuring']

/** Node's arguments for the server: its flags, any of the caller's (`--watch`, a heap cap), then the entry. */
export const serverArgs = (extra = []) => [...serverNodeFlags, ...extra, '--import', 'tsx', 'server/main.ts']
