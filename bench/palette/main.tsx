/**
 * The page of the palette bench (bench/palette.ts builds it with Vite and drives it in Chromium).
 * `?list=ours` renders our PaletteList (src/ui/PaletteList.tsx: own ranking, ≤ 100 items) inside
 * <Command shouldFilter={false}>, as src/app/Palette.tsx does; `?list=cmdk` renders a plain cmdk
 * list of the same entries: every entry a <Command.Item> in its <Command.Group>, cmdk's default
 * filter and sort. Both use the app's palette CSS and the same item markup. No Blueprint.
 *
 * Ctrl+K mounts the palette, Escape unmounts it. Each open and each keystroke becomes a Mark:
 * start = performance.now() in a window capture listener (keydown for the open, input for a
 * keystroke), the earliest script sees the event; then, from requestAnimationFrame, once the
 * commit is in (items in the DOM, or cmdk's store holding the typed search, seen by a probe
 * inside the <Command>; otherwise one more frame), a setTimeout(0) takes `paint`: it runs after
 * that frame's rendering work, so start → paint is the time to the next painted frame.
 * Both lists update synchronously in the event's task (React's discrete-event lane; cmdk's
 * useSyncExternalStore), so that frame is the first one that can show the result.
 */
import { useLayoutEffect, useState } from 'react'
import { createRoot } from 'react-dom/client'
import { Command, useCommandState } from 'cmdk'
import { PaletteList } from '../../src/ui/PaletteList.tsx'
import type { PaletteEntry } from '../../src/ui/paletteRank.ts'
import '../../src/app/styles.css'
import { headings, makeEntries, sections, type BenchSection } from './entries.ts'
import type { BenchApi, Mark, Variant } from './protocol.ts'

const params = new URLSearchParams(location.search)
const variant: Variant = params.get('list') === 'cmdk' ? 'cmdk' : 'ours'

interface EntryList {
  entries: PaletteEntry[]
  grouped: (readonly [BenchSection, PaletteEntry[]])[]
}
const lists = new Map<number, EntryList>()
function entryList(n: number): EntryList {
  let list = lists.get(n)
  if (!list) {
    const entries = makeEntries(n)
    const grouped = sections.map((s) => [s, entries.filter((e) => e.section === s)] as const).filter(([, es]) => es.length > 0)
    list = { entries, grouped }
    lists.set(n, list)
  }
  return list
}
/** What the next open lists; the App reads it when it renders. */
let current = entryList(Number(params.get('n') ?? '5000'))
const placeholder = '搜索命令、项目、受试者… · Search commands, projects, subjects…'
const empty = '没有结果 · No results'

const marks: Mark[] = []
const errors: string[] = []
let waiters: { n: number; resolve: () => void }[] = []
const probe = { mounted: false, search: '', commitAt: 0 }
let isOpen = false
let setOpen: (open: boolean) => void = () => errors.push('the page is not mounted yet')
let selected = 0
const select = (_e: PaletteEntry) => void selected++

function wake(): void {
  const due = waiters.filter((w) => marks.length >= w.n)
  waiters = waiters.filter((w) => marks.length < w.n)
  for (const w of due) w.resolve()
}

/** Completes `mark` after the first frame painted once `ready()` holds (see the file comment). */
function afterCommitAndPaint(mark: Mark, ready: () => boolean): void {
  let frames = 0
  const onFrame = () => {
    if (!ready()) {
      if (++frames > 300) errors.push(`${mark.kind} '${mark.search}': no commit after 300 frames`)
      else requestAnimationFrame(onFrame)
      return
    }
    mark.commit = probe.commitAt
    setTimeout(() => {
      mark.paint = performance.now()
      mark.items = document.querySelectorAll('[cmdk-item]').length
      marks.push(mark)
      wake()
    }, 0)
  }
  requestAnimationFrame(onFrame)
}

window.addEventListener(
  'keydown',
  (e) => {
    if ((e.ctrlKey || e.metaKey) && e.key.toLowerCase() === 'k' && !isOpen) {
      const mark: Mark = { kind: 'open', start: performance.now(), commit: 0, paint: 0, search: '', items: 0 }
      e.preventDefault()
      setOpen(true)
      afterCommitAndPaint(mark, () => probe.mounted && document.querySelector('[cmdk-item]') !== null)
    } else if (e.key === 'Escape' && isOpen) {
      e.preventDefault()
      setOpen(false)
    }
  },
  true,
)

window.addEventListener(
  'input',
  (e) => {
    const target = e.target
    if (!(target instanceof HTMLInputElement) || !target.hasAttribute('cmdk-input')) return
    const search = target.value
    const mark: Mark = { kind: 'key', start: performance.now(), commit: 0, paint: 0, search, items: 0 }
    afterCommitAndPaint(mark, () => probe.search === search)
  },
  true,
)

/** Sits inside the <Command>: its layout effect runs in every commit that changes cmdk's search or selection. */
function Probe() {
  const search = useCommandState((s) => s.search)
  const value = useCommandState((s) => s.value)
  useLayoutEffect(() => {
    probe.search = search
    probe.commitAt = performance.now()
  }, [search, value])
  useLayoutEffect(() => {
    probe.mounted = true
    return () => {
      probe.mounted = false
      probe.search = ''
    }
  }, [])
  return null
}

/** The baseline: cmdk as its README shows it, every entry an item, cmdk filters and sorts. */
function PlainList({ grouped }: { grouped: EntryList['grouped'] }) {
  return (
    <>
      <Command.Input autoFocus placeholder={placeholder} />
      <Command.List>
        <Command.Empty>{empty}</Command.Empty>
        {grouped.map(([section, items]) => (
          <Command.Group key={section} heading={headings[section]}>
            {items.map((e) => (
              <Command.Item
                key={e.id}
                value={e.id}
                keywords={[e.title, e.alt ?? '', ...e.keywords]}
                disabled={e.disabled}
                onSelect={() => select(e)}
              >
                <span className="palette-title">{e.title}</span>
                {e.alt && <span className="palette-alt">{e.alt}</span>}
                {e.hotkey && <kbd className="palette-key">{e.hotkey}</kbd>}
              </Command.Item>
            ))}
          </Command.Group>
        ))}
      </Command.List>
    </>
  )
}

function App() {
  const [open, setOpenState] = useState(false)
  useLayoutEffect(() => {
    setOpen = (next) => {
      isOpen = next
      setOpenState(next)
    }
    // Ready for the driver once the page has mounted.
    window.__bench = api
  }, [])
  const list = current
  return (
    <main style={{ padding: 24 }}>
      <p>
        palette bench · {variant === 'ours' ? 'PaletteList (ours)' : 'plain cmdk'} · {list.entries.length} entries · Ctrl+K
      </p>
      {open && (
        <>
          <div className="palette-overlay" />
          <div className="palette-content">
            {variant === 'ours' ? (
              <Command label="palette" className="palette" shouldFilter={false} loop>
                <OurList entries={list.entries} />
                <Probe />
              </Command>
            ) : (
              <Command label="palette" className="palette" loop>
                <PlainList grouped={list.grouped} />
                <Probe />
              </Command>
            )}
          </div>
        </>
      )}
    </main>
  )
}

const api: BenchApi = {
  variant,
  entryCount: () => current.entries.length,
  setEntries: (n) => {
    if (isOpen) throw new Error('setEntries while the palette is open')
    current = entryList(n)
    return current.entries.length
  },
  marks,
  errors,
  whenMarks: (n, timeoutMs) =>
    new Promise<void>((resolve, reject) => {
      if (marks.length >= n) return resolve()
      const timer = setTimeout(
        () => reject(new Error(`mark ${n} not done within ${timeoutMs} ms (${errors.join('; ') || 'no page error'})`)),
        timeoutMs,
      )
      waiters.push({
        n,
        resolve: () => {
          clearTimeout(timer)
          resolve()
        },
      })
    }),
  snapshot: () => {
    const input = document.querySelector<HTMLInputElement>('[cmdk-input]')
    const first = document.querySelector('[cmdk-item] .palette-title')
    return {
      open: isOpen,
      search: input?.value ?? '',
      items: document.querySelectorAll('[cmdk-item]').length,
      first: first?.textContent ?? null,
    }
  },
}

createRoot(document.getElementById('root')!).render(<App />)

/** PaletteList with its search held here, as the app's palette holds it. */
function OurList({ entries }: { entries: Parameters<typeof PaletteList>[0]['entries'] }) {
  const [search, setSearch] = useState('')
  return (
    <PaletteList
      entries={entries}
      placeholder={placeholder}
      empty={empty}
      headings={headings}
      search={search}
      onSearch={setSearch}
      onSelect={select}
    />
  )
}
