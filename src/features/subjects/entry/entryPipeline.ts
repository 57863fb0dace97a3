/**
 * The data-entry save pipeline (pipeline.ts): drafts and an outbox in IndexedDB.
 *
 * Every save is written to the outbox BEFORE it is sent, so a crash or a reload while it travels
 * loses nothing; the outbox is sent in order, one save at a time. A network failure or a
 * time-out stops the drain and keeps the save (retried with a growing delay, and at once when
 * the browser says it is online); a refusal (4xx) or a conflict (409) takes the save out of the
 * outbox and never sends it again, its values go back to the draft so the user still has them.
 *
 * Two saves of one form waiting together are merged into the later one: each save carries the
 * whole form, and sending both would make the second change values the first saved (the server
 * would then ask for a reason the user was never asked for). For the same cause a save that
 * starts from a rev this pipeline itself already moved past is sent from the new rev.
 */
import { useCallback, useSyncExternalStore } from 'react'
import { openDB, type DBSchema, type IDBPDatabase } from 'idb'
import { saveConflict, saveForm, saveInvalid, type FormSave, type FormSaved, type SaveConflict } from '../../../../contract/studyData.ts'
import { call } from '../../../api/call.ts'
import { isApiError, reloginCodes } from '../../../api/client.ts'
import { session } from '../../../state/session.ts'
import type { FormData } from '../../../ui/FormRenderer.tsx'
import { entryKeyString, type EntryKey, type EntryPipeline, type Refusal, type SaveState, type SubmitOutcome } from './pipeline.ts'

/** What sending one save may end in. */
export type SendResult =
  { kind: 'saved'; saved: FormSaved } | { kind: 'offline' } | { kind: 'conflict'; current: SaveConflict['current'] } | Refusal

interface DraftRow {
  key: string
  data: FormData
  /** When it was typed: a draft newer than a queued save outlives that save's success. */
  at: number
}

interface OutboxRow {
  /** Auto-incremented: the order saves are sent in. */
  id?: number
  key: string
  entry: EntryKey
  save: FormSave
  at: number
}

interface EntryDb extends DBSchema {
  drafts: { key: string; value: DraftRow }
  outbox: { key: number; value: OutboxRow; indexes: { byKey: string } }
}

export interface PipelineOptions {
  /** IndexedDB database name (tests use their own). */
  dbName?: string
  /** Sends one save; the default calls saveOneFormInfo. */
  send?: (save: FormSave) => Promise<SendResult>
  /** Milliseconds before the next try after a network failure, by failure count (the last repeats). */
  retryDelays?: readonly number[]
  now?: () => number
  /** Who is signed in: drafts and saves are each user's own; default the session's user. */
  user?: () => number | null
}

/** The pipeline and what tests and the app's start need beyond the interface. */
export interface EntryPipelineImpl extends EntryPipeline {
  /** Tries to send the outbox now (after a reconnect). Resolves when the drain stops. */
  flush(): Promise<void>
  /** The state now, outside React. */
  stateOf(key: EntryKey): SaveState
  /** Called whenever the state of `key` may have changed. */
  subscribe(key: EntryKey, listener: () => void): () => void
  /** Resolves when pending draft writes are done (tests). */
  settled(): Promise<void>
  close(): void
}

/** A save's time-out: shorter than the client's 50 s so an unreachable server shows as queued soon. */
const SEND_TIMEOUT_MS = 20_000
const defaultRetryDelays = [2_000, 5_000, 10_000, 30_000]
/** Statuses of a proxy or gateway that cannot reach the server: worth sending again. */
const unreachableStatuses: ReadonlySet<number> = new Set([502, 503, 504])

/** Sends through the typed client; failures become the pipeline's outcomes. */
export async function sendSave(save: FormSave): Promise<SendResult> {
  try {
    // No toast: the save-state tag shows the outcome where the user looks.
    return { kind: 'saved', saved: await call(saveForm, save, { toast: false, timeout: SEND_TIMEOUT_MS }) }
  } catch (e) {
    return classifyFailure(e)
  }
}

export function classifyFailure(e: unknown): Exclude<SendResult, { kind: 'saved' }> {
  if (!isApiError(e)) return { kind: 'refused', message: e instanceof Error ? e.message : String(e) }
  if (e.kind === 'network' || e.kind === 'timeout') return { kind: 'offline' }
  if (e.status !== undefined && unreachableStatuses.has(e.status)) return { kind: 'offline' }
  // A session that ended keeps the save: it goes once the user has signed in again.
  if (e.status === 401 || (e.code !== undefined && reloginCodes.has(e.code))) return { kind: 'offline' }
  if (e.status === 409) {
    const conflict = saveConflict.safeParse(e.envelope?.data)
    if (conflict.success) return { kind: 'conflict', current: conflict.data.current }
  }
  // Refused values come with each field's message, so the form marks the fields themselves.
  const invalid = e.status === 400 ? saveInvalid.safeParse(e.envelope?.data) : undefined
  if (invalid?.success) return { kind: 'refused', message: e.message, fields: invalid.data.errors }
  return { kind: 'refused', message: e.message }
}

/** The form data a save carries (row ids and revs aside): what goes back to the draft. */
export function formDataOfSave(save: FormSave): FormData {
  const rows = Object.fromEntries(Object.entries(save.rows ?? {}).map(([k, rs]) => [k, rs.map((r) => r.values)]))
  return { values: save.values, rows }
}

const sameJson = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b)
const sortedValues = (v: Readonly<Record<string, unknown>>) => Object.fromEntries(Object.entries(v).sort(([a], [b]) => a.localeCompare(b)))

/**
 * A conflict whose stored values are exactly the save's: our own save arrived before and only
 * its answer was lost (a time-out after the commit). Then the save did happen.
 */
function isOwnEcho(save: FormSave, current: SaveConflict['current']): boolean {
  if (!sameJson(sortedValues(save.values), sortedValues(current.values))) return false
  for (const [section, rows] of Object.entries(save.rows ?? {})) {
    const stored = current.rows[section] ?? []
    if (stored.length !== rows.length) return false
    if (rows.some((r, i) => !sameJson(sortedValues(r.values), sortedValues(stored[i]?.values ?? {})))) return false
  }
  return true
}

interface KeyState {
  draft: boolean
  sending: boolean
  last: { kind: 'saved'; at: string | null } | { kind: 'conflict'; current: SaveConflict['current'] } | Refusal
  state: SaveState
}

export function createEntryPipeline(options: PipelineOptions = {}): EntryPipelineImpl {
  const dbName = options.dbName ?? 'crw-entry'
  const send = options.send ?? sendSave
  const retryDelays = options.retryDelays ?? defaultRetryDelays
  const now = options.now ?? (() => Date.now())
  const user = options.user ?? (() => session.userId)
  /** Storage keys carry the user: another user of this browser neither sees nor sends them. */
  const keyOf = (key: EntryKey) => `${user() ?? 0}|${entryKeyString(key)}`
  const userOf = (k: string) => k.slice(0, k.indexOf('|'))

  let dbPromise: Promise<IDBPDatabase<EntryDb>> | null = null
  const db = () =>
    (dbPromise ??= openDB<EntryDb>(dbName, 1, {
      upgrade(d) {
        d.createObjectStore('drafts', { keyPath: 'key' })
        d.createObjectStore('outbox', { keyPath: 'id', autoIncrement: true }).createIndex('byKey', 'key')
      },
    }))

  const keys = new Map<string, KeyState>()
  const listeners = new Map<string, Set<() => void>>()
  /** Saves waiting in the outbox by user, all forms: the number the tag shows. */
  const queuedByUser = new Map<string, number>()
  /** Keys with a save in the outbox. */
  const queuedKeys = new Map<string, number>()
  /** The rev our own last save of a key moved from and to (see the header). */
  const own = new Map<string, { from: number; to: number; recordId: number }>()
  /** Whoever waits for the outcome of an outbox row (a submit). */
  const waiters = new Map<number, (o: SubmitOutcome) => void>()

  const keyState = (k: string): KeyState => {
    let s = keys.get(k)
    if (!s) {
      s = { draft: false, sending: false, last: { kind: 'saved', at: null }, state: { kind: 'saved', at: null } }
      keys.set(k, s)
    }
    return s
  }

  const derive = (k: string, s: KeyState): SaveState => {
    if (s.sending) return { kind: 'sending' }
    if (s.last.kind !== 'saved') return s.last
    if ((queuedKeys.get(k) ?? 0) > 0) return { kind: 'queued', count: queuedByUser.get(userOf(k)) ?? 0 }
    if (s.draft) return { kind: 'unsaved' }
    return s.last
  }

  /** Recomputes the states (all keys when the shared queue count changed) and tells who listens. */
  const publish = (only?: string) => {
    for (const [k, s] of keys) {
      if (only !== undefined && k !== only) continue
      const next = derive(k, s)
      if (sameJson(next, s.state)) continue
      s.state = next
      for (const l of listeners.get(k) ?? []) l()
    }
  }

  const update = (k: string, change: (s: KeyState) => void) => {
    change(keyState(k))
    publish(k)
  }

  const countQueued = (k: string, delta: number) => {
    queuedByUser.set(userOf(k), (queuedByUser.get(userOf(k)) ?? 0) + delta)
    const n = (queuedKeys.get(k) ?? 0) + delta
    if (n > 0) queuedKeys.set(k, n)
    else queuedKeys.delete(k)
    publish()
  }

  // What this browser kept from before a reload: drafts and the outbox (read once, on first use).
  let loading: Promise<void> | null = null
  const loaded = () =>
    (loading ??= (async () => {
      const d = await db()
      for (const k of await d.getAllKeys('drafts')) keyState(k).draft = true
      for (const row of await d.getAll('outbox')) {
        keyState(row.key)
        countQueued(row.key, 1)
      }
      publish()
      // Saves left from before a reload go out as soon as the page is up.
      if (queuedKeys.size > 0) void flush()
    })())

  // Draft writes: one chain, so at most one write is in flight and a drop never loses to an
  // older write; the newest values of a key replace those still waiting.
  const pendingDrafts = new Map<string, FormData>()
  /** keepDraft calls by key: a drop leaves alone a draft kept after it began (typed on at once). */
  const draftEdits = new Map<string, number>()
  let draftChain: Promise<void> = Promise.resolve()
  let draftFlushQueued = false
  const onChain = (work: () => Promise<void>) => {
    draftChain = draftChain.then(work).catch((e: unknown) => console.error('[entry] draft storage failed', e))
    return draftChain
  }
  const writePendingDrafts = async () => {
    draftFlushQueued = false
    const d = await db()
    for (const [k, data] of [...pendingDrafts]) {
      pendingDrafts.delete(k)
      await d.put('drafts', { key: k, data, at: now() })
    }
  }

  let running: Promise<void> | null = null
  let again: Promise<void> | null = null
  /** The outbox row being sent now. */
  let inFlight: number | null = null
  let failures = 0
  let retryTimer: ReturnType<typeof setTimeout> | null = null
  let closed = false

  const scheduleRetry = () => {
    if (closed || retryTimer !== null || retryDelays.length === 0) return
    const delay = retryDelays[Math.min(failures - 1, retryDelays.length - 1)] ?? 0
    retryTimer = setTimeout(() => {
      retryTimer = null
      void flush()
    }, delay)
  }

  /** The save as it must go now: from our own newer rev when it started from the one we left. */
  const rebased = (k: string, save: FormSave): FormSave => {
    const mine = own.get(k)
    if (!mine || save.rev !== mine.from || (save.recordId !== undefined && save.recordId !== mine.recordId)) return save
    return { ...save, rev: mine.to, recordId: mine.recordId }
  }

  const settle = (id: number, outcome: SubmitOutcome) => {
    waiters.get(id)?.(outcome)
    waiters.delete(id)
  }

  /** Back to the draft, unless the user typed something newer since. */
  const restoreDraft = async (row: OutboxRow) => {
    const d = await db()
    const draft = await d.get('drafts', row.key)
    if (draft && draft.at > row.at) return
    await d.put('drafts', { key: row.key, data: formDataOfSave(row.save), at: row.at })
    update(row.key, (s) => (s.draft = true))
  }

  const drainOnce = async () => {
    await loaded()
    const d = await db()
    for (;;) {
      const me = user()
      if (closed || me === null) return
      let cursor = await d.transaction('outbox').store.openCursor()
      while (cursor && userOf(cursor.value.key) !== String(me)) cursor = await cursor.continue()
      if (!cursor) return
      const row = cursor.value
      const id = row.id as number
      const save = rebased(row.key, row.save)
      inFlight = id
      update(row.key, (s) => (s.sending = true))
      let result = await send(save)
      inFlight = null
      if (result.kind === 'conflict' && isOwnEcho(save, result.current) && result.current.record)
        result = { kind: 'saved', saved: { record: result.current.record, rows: {}, changed: 0 } }
      if (result.kind === 'offline') {
        update(row.key, (s) => (s.sending = false))
        failures += 1
        settle(id, { kind: 'queued' })
        scheduleRetry()
        return
      }
      failures = 0
      await d.delete('outbox', id)
      if (result.kind === 'saved') {
        const { record } = result.saved
        own.set(row.key, { from: save.rev, to: record.rev, recordId: record.id })
        const draft = await d.get('drafts', row.key)
        // The draft is what this save sent (or older): nothing unsaved is left.
        const draftGone = !draft || draft.at <= row.at
        if (draft && draftGone) await d.delete('drafts', row.key)
        update(row.key, (s) => {
          s.sending = false
          s.last = { kind: 'saved', at: record.updatedAt }
          if (draftGone) s.draft = false
        })
        countQueued(row.key, -1)
        settle(id, { kind: 'saved', saved: result.saved })
      } else {
        await restoreDraft(row)
        const last = result
        update(row.key, (s) => {
          s.sending = false
          s.last = last
        })
        countQueued(row.key, -1)
        settle(id, last)
      }
    }
  }

  const startDrain = () => {
    const p: Promise<void> = drainOnce()
      .catch((e: unknown) => console.error('[entry] outbox failed', e))
      .finally(() => {
        if (running === p) running = null
      })
    running = p
    return p
  }

  /** A drain now, or (one) right after the running one, which may have passed a save just added. */
  function flush(): Promise<void> {
    if (retryTimer !== null) {
      clearTimeout(retryTimer)
      retryTimer = null
    }
    if (!running) return startDrain()
    again ??= running.then(() => {
      again = null
      return running ?? startDrain()
    })
    return again
  }

  const onOnline = () => {
    failures = 0
    void flush()
  }
  if (typeof window !== 'undefined') window.addEventListener('online', onOnline)
  if (typeof indexedDB !== 'undefined') void loaded()

  return {
    async loadDraft(key) {
      await loaded()
      await draftChain
      const row = await (await db()).get('drafts', keyOf(key))
      return row?.data ?? null
    },

    keepDraft(key, data) {
      const k = keyOf(key)
      pendingDrafts.set(k, data)
      draftEdits.set(k, (draftEdits.get(k) ?? 0) + 1)
      update(k, (s) => {
        s.draft = true
        // Editing after a refusal is the fix: the tag says unsaved again. A conflict stays until resolved.
        if (s.last.kind === 'refused') s.last = { kind: 'saved', at: null }
      })
      if (!draftFlushQueued) {
        draftFlushQueued = true
        void onChain(writePendingDrafts)
      }
    },

    async dropDraft(key) {
      const k = keyOf(key)
      const edits = draftEdits.get(k)
      pendingDrafts.delete(k)
      // A draft kept after this drop began is newer: a write queued before the delete carries it.
      const outdated = () => draftEdits.get(k) !== edits
      await onChain(async () => {
        if (!outdated()) await (await db()).delete('drafts', k)
      })
      if (outdated()) return
      update(k, (s) => {
        s.draft = false
        if (s.last.kind !== 'saved') s.last = { kind: 'saved', at: null }
      })
    },

    async submit(key, save) {
      await loaded()
      const k = keyOf(key)
      const d = await db()
      const tx = d.transaction('outbox', 'readwrite')
      // A save of this form still waiting (not in flight) is replaced: see the header.
      let merged = save
      let replaced = 0
      for (const old of await tx.store.index('byKey').getAll(k)) {
        const oldId = old.id as number
        if (oldId === inFlight) continue
        merged = {
          ...merged,
          recordId: merged.recordId ?? old.save.recordId,
          reason: merged.reason || old.save.reason,
        }
        await tx.store.delete(oldId)
        settle(oldId, { kind: 'queued' })
        replaced += 1
      }
      const id = await tx.store.add({ key: k, entry: key, save: merged, at: now() })
      await tx.done
      update(k, (s) => {
        if (s.last.kind !== 'saved') s.last = { kind: 'saved', at: null }
      })
      countQueued(k, 1 - replaced)
      const outcome = new Promise<SubmitOutcome>((resolve) => waiters.set(id, resolve))
      await flush()
      // The drain stopped before this save (offline, or another save before it failed to go).
      if (waiters.has(id)) settle(id, { kind: 'queued' })
      return outcome
    },

    useSaveState(key) {
      const k = keyOf(key)
      const sub = useCallback((l: () => void) => subscribeKey(k, l), [k])
      const get = useCallback(() => keyState(k).state, [k])
      return useSyncExternalStore(sub, get, get)
    },

    flush,
    stateOf: (key) => keyState(keyOf(key)).state,
    subscribe: (key, listener) => subscribeKey(keyOf(key), listener),
    settled: async () => {
      await loaded()
      await draftChain
    },
    close() {
      closed = true
      if (retryTimer !== null) clearTimeout(retryTimer)
      if (typeof window !== 'undefined') window.removeEventListener('online', onOnline)
      void dbPromise?.then((d) => d.close())
    },
  }

  function subscribeKey(k: string, listener: () => void) {
    keyState(k)
    void loaded()
    let set = listeners.get(k)
    if (!set) listeners.set(k, (set = new Set()))
    set.add(listener)
    return () => {
      set.delete(listener)
    }
  }
}

/** The app's one pipeline (the database opens on first use). */
export const entryPipeline: EntryPipelineImpl = createEntryPipeline()
