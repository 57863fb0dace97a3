/**
 * The client figures of `npm run bench` (DESIGN.md §8, issue 3 item 10), called by bench/run.ts;
 * also runnable alone: `npx tsx bench/palette.ts [--budget S] [--cycles N]` prints the figures as JSON.
 *
 * Palette: bench/palette/ (a small page, no Blueprint) is built with Vite's JS API into a temp
 * dir, served on 127.0.0.1 by node:http and driven in Debian's Chromium (playwright-core,
 * headless). The page renders either our PaletteList (src/ui/PaletteList.tsx, own ranking,
 * ≤ 100 items) inside <Command shouldFilter={false}> or a plain cmdk list with all entries and
 * cmdk's default filter: the same 5,000 synthetic entries, the same markup and CSS.
 *  - open to first paint: Ctrl+K mounts the palette; from the keydown (performance.now() in a
 *    window capture listener) to a setTimeout(0) queued from the first requestAnimationFrame
 *    after the items are in the DOM, i.e. after that frame was rendered.
 *  - per keystroke: the query is typed one character at a time (keyboard.down/up for ASCII,
 *    insertText for Chinese, as an IME commits it); from the input event (window capture) to the
 *    same "frame after the commit" point. The next key is sent only after that point.
 * A session is one fresh page load of one list and one query: a warm-up on 200 entries (the same
 * code paths; not measured), then on all entries open (measured), type the query (each key
 * measured), Escape, open again (measured), Escape. A cycle runs every query in both lists, the
 * lists' order flipping every session pair so both meet the same machine load; cycles repeat
 * while the time budget (40 s) allows, at least one, at most four. Medians and p95 (nearest
 * rank) over all samples; ratios are ours / plain cmdk, lower is better. Nothing is asserted.
 *
 * First load: the app is built with the project's vite.config.ts (the @blueprintjs/icons alias
 * included) into a temp outDir with a manifest; the JS and CSS that dist index.html loads (its
 * module script, modulepreloads and stylesheets, plus the entry's static imports by the manifest)
 * are gzipped with zlib.gzipSync (default level) and summed against the 250 kB budget.
 */
import fs from 'node:fs'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import zlib from 'node:zlib'
import react from '@vitejs/plugin-react'
import { chromium, type Browser, type Page } from 'playwright-core'
import { build } from 'vite'
import type { Mark, Variant } from './palette/protocol.ts'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const executablePath = process.env.CHROMIUM_PATH || '/usr/bin/chromium'

export const firstLoadBudgetBytes = 250_000

export interface Stats {
  n: number
  median: number
  p95: number
  min: number
  max: number
}

export interface VariantFigures {
  /** Ctrl+K to the first painted frame with the items, ms. */
  open: Stats
  /** Ctrl+K to React's commit (the probe's layout effect), ms: the script part of `open`. */
  openCommit: Stats
  /** Input event to the first painted frame after the commit, ms. */
  key: Stats
  /** Input event to the last commit before that frame, ms. */
  keyCommit: Stats
  /** [cmdk-item]s in the DOM after each full query. */
  itemsAfter: Record<string, number>
  /** The first item's title after each full query. */
  firstAfter: Record<string, string | null>
}

export interface PaletteFigures {
  entries: number
  queries: string[]
  /** Each cycle types every query once in each list, a fresh page per list and query. */
  cycles: number
  chromium: string
  ours: VariantFigures
  cmdk: VariantFigures
  /** ours / plain cmdk; lower is better. */
  ratios: { openMedian: number; openP95: number; keyMedian: number; keyP95: number }
  wallSeconds: number
}

export interface BundleFile {
  file: string
  bytes: number
  gzip: number
}

export interface BundleFigures {
  files: BundleFile[]
  jsGzip: number
  cssGzip: number
  totalGzip: number
  budget: number
  withinBudget: boolean
  /**
   * The English dictionary's chunk: a Chinese session (the default) never needs it before the
   * first render, an English one fetches it on top of the first load (src/i18n/index.ts).
   */
  englishGzip: number | null
  wallSeconds: number
}

// ---------------------------------------------------------------------------------------------
// Resources and their cleanup

const tempDirs: string[] = []
let browser: Browser | undefined
let server: http.Server | undefined

function tempDir(prefix: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix))
  tempDirs.push(dir)
  return dir
}

/** Closes the browser and the static server and removes the temp dirs; safe to call twice. */
export async function closePaletteBench(): Promise<void> {
  const b = browser
  browser = undefined
  // If close() hangs, playwright-core's own process 'exit' hook still kills the browser's group.
  if (b) await Promise.race([b.close().catch(() => undefined), new Promise((r) => setTimeout(r, 5000).unref())])
  const s = server
  server = undefined
  if (s) {
    s.closeAllConnections()
    await new Promise<void>((resolve) => s.close(() => resolve()))
  }
  removeTempDirs()
}

/**
 * For a process 'exit' handler: synchronous only. The browser needs nothing here: playwright-core
 * kills what it launched (and its profile dir) in its own 'exit' hook.
 */
export function closePaletteBenchSync(): void {
  removeTempDirs()
}

function removeTempDirs(): void {
  for (const dir of tempDirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true })
}

// ---------------------------------------------------------------------------------------------
// Statistics

export function stats(samples: readonly number[]): Stats {
  const s = [...samples].sort((a, b) => a - b)
  const n = s.length
  if (n === 0) return { n: 0, median: NaN, p95: NaN, min: NaN, max: NaN }
  const median = n % 2 ? s[(n - 1) / 2]! : (s[n / 2 - 1]! + s[n / 2]!) / 2
  // Nearest rank.
  const p95 = s[Math.min(n - 1, Math.ceil(0.95 * n) - 1)]!
  // performance.now() in a page that is not cross-origin isolated ticks in 0.1 ms.
  const r = (x: number) => Math.round(x * 10) / 10
  return { n, median: r(median), p95: r(p95), min: r(s[0]!), max: r(s[n - 1]!) }
}

// ---------------------------------------------------------------------------------------------
// Serving a built dir

const contentTypes: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.json': 'application/json',
  '.woff2': 'font/woff2',
}

function serve(dir: string): Promise<string> {
  const s = http.createServer((req, res) => {
    const urlPath = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname)
    const file = path.join(dir, urlPath === '/' ? 'index.html' : urlPath)
    if (!file.startsWith(dir + path.sep) || !fs.existsSync(file) || !fs.statSync(file).isFile()) {
      res.writeHead(404).end('not found')
      return
    }
    res.writeHead(200, { 'content-type': contentTypes[path.extname(file)] ?? 'application/octet-stream', 'cache-control': 'no-store' })
    fs.createReadStream(file).pipe(res)
  })
  server = s
  return new Promise((resolve, reject) => {
    s.once('error', reject)
    s.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(s.address() as AddressInfo).port}`))
  })
}

// ---------------------------------------------------------------------------------------------
// The palette

export interface PaletteOptions {
  /** The measuring stops starting new cycles once this is spent (default 40 s); one cycle always runs. */
  budgetSeconds?: number
  /** At most this many cycles (default 4). A cycle types every query once in each list. */
  maxCycles?: number
  queries?: string[]
  entries?: number
  log?: (line: string) => void
}

interface Session {
  opens: Mark[]
  keys: Mark[]
  query: string
  items: number
  first: string | null
}

const markTimeoutMs = 30_000
/** The warm-up runs on this many entries: the same code paths, a fraction of the time. */
const warmUpEntries = 200

/**
 * One fresh page load of one list: a warm-up on a few entries (open, type `query`, close, open,
 * close; not measured), then on all entries: open (measured), type `query` (each key measured),
 * close, open again (measured), close.
 */
async function runSession(page: Page, base: string, variant: Variant, query: string, entries: number): Promise<Session> {
  const pageErrors: string[] = []
  const onError = (e: Error) => pageErrors.push(e.message)
  page.on('pageerror', onError)
  try {
    await page.goto(`${base}/index.html?list=${variant}&n=${entries}`)
    await page.waitForFunction(() => window.__bench !== undefined, undefined, { timeout: 20_000 })
    const shown = await page.evaluate(() => window.__bench!.variant)
    if (shown !== variant) throw new Error(`the page shows the ${shown} list, expected ${variant}`)

    let expected = 0
    const next = async () => {
      expected++
      await page.evaluate(([n, ms]) => window.__bench!.whenMarks(n, ms), [expected, markTimeoutMs] as const)
    }
    const type = async (ch: string) => {
      if (/^[ -~]$/.test(ch)) {
        await page.keyboard.down(ch)
        await next()
        await page.keyboard.up(ch)
      } else {
        await page.keyboard.insertText(ch)
        await next()
      }
    }
    const open = async () => {
      await page.keyboard.press('Control+k')
      await next()
      const focused = await page.evaluate(() => document.activeElement?.hasAttribute('cmdk-input') ?? false)
      if (!focused) throw new Error(`${variant}: the palette input has no focus after opening`)
    }
    const close = async () => {
      await page.keyboard.press('Escape')
      await page.waitForFunction(() => document.querySelector('[cmdk-root]') === null, undefined, { timeout: markTimeoutMs })
    }
    const useEntries = async (n: number) => {
      const got = await page.evaluate((k) => window.__bench!.setEntries(k), n)
      if (got !== n) throw new Error(`${variant}: asked for ${n} entries, the page has ${got}`)
    }

    await useEntries(warmUpEntries)
    await open()
    for (const ch of query) await type(ch)
    await close()
    await open()
    await close()
    const warmUp = expected

    await useEntries(entries)
    await open()
    for (const ch of query) await type(ch)
    const snap = await page.evaluate(() => window.__bench!.snapshot())
    if (snap.search !== query) throw new Error(`${variant}: typed '${query}', the input holds '${snap.search}'`)
    await close()
    await open()
    await close()

    const { marks, errors } = await page.evaluate(() => ({ marks: window.__bench!.marks, errors: window.__bench!.errors }))
    if (errors.length > 0) throw new Error(`${variant}: ${errors.join('; ')}`)
    if (pageErrors.length > 0) throw new Error(`${variant}: page error: ${pageErrors.join('; ')}`)
    if (marks.length !== expected) throw new Error(`${variant}: ${marks.length} marks, expected ${expected}`)
    const measured = marks.slice(warmUp)
    for (const m of measured) {
      if (m.items === 0) throw new Error(`${variant}: no items in the DOM after ${m.kind} '${m.search}'`)
      if (!(m.start <= m.commit && m.commit <= m.paint)) throw new Error(`${variant}: marks out of order ${JSON.stringify(m)}`)
    }
    return {
      opens: measured.filter((m) => m.kind === 'open'),
      keys: measured.filter((m) => m.kind === 'key'),
      query,
      items: snap.items,
      first: snap.first,
    }
  } finally {
    page.off('pageerror', onError)
  }
}

function variantFigures(sessions: Session[]): VariantFigures {
  const opens = sessions.flatMap((s) => s.opens)
  const keys = sessions.flatMap((s) => s.keys)
  return {
    open: stats(opens.map((m) => m.paint - m.start)),
    openCommit: stats(opens.map((m) => m.commit - m.start)),
    key: stats(keys.map((m) => m.paint - m.start)),
    keyCommit: stats(keys.map((m) => m.commit - m.start)),
    itemsAfter: Object.fromEntries(sessions.map((s) => [s.query, s.items])),
    firstAfter: Object.fromEntries(sessions.map((s) => [s.query, s.first])),
  }
}

export async function runPaletteBench(options: PaletteOptions = {}): Promise<PaletteFigures> {
  const started = Date.now()
  const budgetMs = (options.budgetSeconds ?? 40) * 1000
  const maxCycles = options.maxCycles ?? 4
  const queries = options.queries ?? ['肺癌 ind-004', 'blood pressure']
  const entries = options.entries ?? 5000
  const log = options.log ?? (() => {})
  if (!fs.existsSync(executablePath)) throw new Error(`Chromium not found at ${executablePath} (apt-get install chromium)`)

  const outDir = tempDir('bench-palette-')
  await build({
    root: path.join(root, 'bench', 'palette'),
    configFile: false,
    logLevel: 'warn',
    plugins: [react()],
    base: './',
    build: { outDir, emptyOutDir: true, reportCompressedSize: false, chunkSizeWarningLimit: 10_000 },
  })
  const base = await serve(outDir)

  browser = await chromium.launch({
    executablePath,
    headless: true,
    // bench/run.ts owns the signals and calls closePaletteBench().
    handleSIGINT: false,
    handleSIGTERM: false,
    handleSIGHUP: false,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  })
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } })
  const page = await context.newPage()
  log(`palette page built, served on ${base}, Chromium ${browser.version()} up in ${((Date.now() - started) / 1000).toFixed(1)} s`)

  // Sessions alternate the lists and flip their order every round, so both meet the same load.
  const sessions: Record<Variant, Session[]> = { ours: [], cmdk: [] }
  const measuring = Date.now()
  let cycles = 0
  let lastCycleMs = 0
  while (cycles < maxCycles && (cycles === 0 || Date.now() - measuring + lastCycleMs <= budgetMs)) {
    const cycleStart = Date.now()
    for (const [i, query] of queries.entries()) {
      const order: Variant[] = (cycles * queries.length + i) % 2 === 0 ? ['ours', 'cmdk'] : ['cmdk', 'ours']
      for (const v of order) sessions[v].push(await runSession(page, base, v, query, entries))
    }
    cycles++
    lastCycleMs = Date.now() - cycleStart
    log(`palette cycle ${cycles} took ${(lastCycleMs / 1000).toFixed(1)} s`)
  }
  const chromiumVersion = browser.version()
  await context.close()

  const ours = variantFigures(sessions.ours)
  const cmdk = variantFigures(sessions.cmdk)
  const ratio = (a: number, b: number) => (b > 0 ? a / b : NaN)
  return {
    entries,
    queries,
    cycles,
    chromium: chromiumVersion,
    ours,
    cmdk,
    ratios: {
      openMedian: ratio(ours.open.median, cmdk.open.median),
      openP95: ratio(ours.open.p95, cmdk.open.p95),
      keyMedian: ratio(ours.key.median, cmdk.key.median),
      keyP95: ratio(ours.key.p95, cmdk.key.p95),
    },
    wallSeconds: (Date.now() - started) / 1000,
  }
}

// ---------------------------------------------------------------------------------------------
// The first-load bundle

/** The JS and CSS files (relative to outDir) that outDir/index.html loads before the app runs. */
export function firstLoadFiles(outDir: string): string[] {
  const html = fs.readFileSync(path.join(outDir, 'index.html'), 'utf8')
  const refs = new Set<string>()
  const local = (url: string | undefined) => {
    if (!url || /^[a-z]+:|^\/\//i.test(url)) return
    refs.add(url.replace(/^\.?\//, ''))
  }
  for (const m of html.matchAll(/<script\b[^>]*>/gi)) local(/\bsrc="([^"]+)"/i.exec(m[0])?.[1])
  for (const m of html.matchAll(/<link\b[^>]*>/gi)) {
    const rel = /\brel="([^"]+)"/i.exec(m[0])?.[1]?.toLowerCase()
    if (rel === 'stylesheet' || rel === 'modulepreload') local(/\bhref="([^"]+)"/i.exec(m[0])?.[1])
  }
  // The entry's static imports by the manifest, in case a modulepreload was left out.
  const manifestPath = path.join(outDir, '.vite', 'manifest.json')
  if (fs.existsSync(manifestPath)) {
    type Chunk = { file: string; css?: string[]; imports?: string[]; isEntry?: boolean }
    const manifest = JSON.parse(fs.readFileSync(manifestPath, 'utf8')) as Record<string, Chunk>
    const seen = new Set<string>()
    const walk = (key: string) => {
      const chunk = manifest[key]
      if (!chunk || seen.has(key)) return
      seen.add(key)
      refs.add(chunk.file)
      for (const css of chunk.css ?? []) refs.add(css)
      for (const imp of chunk.imports ?? []) walk(imp)
    }
    for (const [key, chunk] of Object.entries(manifest)) if (chunk.isEntry) walk(key)
  }
  const files = [...refs].filter((f) => /\.(m?js|css)$/.test(f)).sort()
  for (const f of files) if (!fs.existsSync(path.join(outDir, f))) throw new Error(`index.html loads ${f}, which the build did not write`)
  return files
}

export function gzipFigures(outDir: string, files: readonly string[]): BundleFigures {
  const list = files.map((file) => {
    const buf = fs.readFileSync(path.join(outDir, file))
    return { file, bytes: buf.length, gzip: zlib.gzipSync(buf).length }
  })
  const sum = (re: RegExp) => list.filter((f) => re.test(f.file)).reduce((a, f) => a + f.gzip, 0)
  const totalGzip = list.reduce((a, f) => a + f.gzip, 0)
  return {
    files: list,
    jsGzip: sum(/\.m?js$/),
    cssGzip: sum(/\.css$/),
    totalGzip,
    budget: firstLoadBudgetBytes,
    withinBudget: totalGzip <= firstLoadBudgetBytes,
    englishGzip: null,
    wallSeconds: 0,
  }
}

/** Builds the app (vite.config.ts) into a temp outDir and measures its first load. */
export async function measureFirstLoad(): Promise<BundleFigures> {
  const started = Date.now()
  const outDir = tempDir('bench-dist-')
  await build({
    root,
    configFile: path.join(root, 'vite.config.ts'),
    logLevel: 'warn',
    build: { outDir, emptyOutDir: true, manifest: true, reportCompressedSize: false },
  })
  const figures = gzipFigures(outDir, firstLoadFiles(outDir))
  const manifest = JSON.parse(fs.readFileSync(path.join(outDir, '.vite', 'manifest.json'), 'utf8')) as Record<string, { file: string }>
  const english = manifest['src/i18n/en.ts']?.file
  const englishGzip = english ? zlib.gzipSync(fs.readFileSync(path.join(outDir, english))).length : null
  return { ...figures, englishGzip, wallSeconds: (Date.now() - started) / 1000 }
}

// ---------------------------------------------------------------------------------------------
// Alone: npx tsx bench/palette.ts [--budget S] [--cycles N]

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({ options: { budget: { type: 'string', default: '40' }, cycles: { type: 'string', default: '4' } } })
  process.on('exit', closePaletteBenchSync)
  let code = 0
  try {
    const palette = await runPaletteBench({
      budgetSeconds: Number(values.budget),
      maxCycles: Number(values.cycles),
      log: (l) => console.error(l),
    })
    const bundle = await measureFirstLoad()
    console.log(JSON.stringify({ palette, bundle }, null, 2))
  } catch (err) {
    console.error('bench/palette:', err)
    code = 1
  } finally {
    await closePaletteBench()
  }
  process.exit(code)
}
