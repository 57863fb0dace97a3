import 'fake-indexeddb/auto'
import { afterEach, describe, expect, it } from 'vitest'
import type { FormSave } from '../../../contract/studyData.ts'
import { ApiError } from '../../../src/api/client.ts'
import {
  classifyFailure,
  createEntryPipeline,
  type EntryPipelineImpl,
  type SendResult,
} from '../../../src/features/subjects/entry/entryPipeline.ts'
import type { EntryKey } from '../../../src/features/subjects/entry/pipeline.ts'

/** A server in memory: one record per form, revs, a switch to take it off the network. */
function fakeServer() {
  const records = new Map<string, { id: number; rev: number; values: FormSave['values'] }>()
  const server = {
    up: true,
    sent: [] as FormSave[],
    records,
    /** The values another person saves meanwhile. */
    saveAsOther(save: Pick<FormSave, 'objectId' | 'templateId' | 'slot'>, values: FormSave['values']) {
      const k = `${save.objectId}/${save.templateId}/${save.slot}`
      const r = records.get(k) ?? { id: records.size + 1, rev: 0, values: {} }
      records.set(k, { ...r, rev: r.rev + 1, values })
    },
    async send(save: FormSave): Promise<SendResult> {
      await Promise.resolve()
      if (!server.up) return { kind: 'offline' }
      server.sent.push(save)
      if (Object.values(save.values).includes('bad')) return { kind: 'refused', message: 'Please input a number' }
      const k = `${save.objectId}/${save.templateId}/${save.slot}`
      const r = records.get(k) ?? { id: records.size + 1, rev: 0, values: {} }
      const head = {
        id: r.id,
        templateId: save.templateId,
        versionId: 1,
        slot: save.slot,
        visitId: null,
        sampleId: null,
        status: 'saved' as const,
        updatedAt: '2026-11-26 12:00:00',
        updatedBy: 'u',
      }
      if (save.rev !== r.rev) return { kind: 'conflict', current: { record: { ...head, rev: r.rev }, values: r.values, rows: {} } }
      records.set(k, { id: r.id, rev: r.rev + 1, values: save.values })
      return { kind: 'saved', saved: { record: { ...head, rev: r.rev + 1 }, rows: {}, changed: 1 } }
    },
  }
  return server
}

const key = (subjectId = 7, templateId = 3): EntryKey => ({ studyId: 1, subjectId, templateId, slot: '' })
const saveOf = (k: EntryKey, values: FormSave['values'], rev = 0, extra: Partial<FormSave> = {}): FormSave => ({
  studyId: k.studyId,
  objectId: k.subjectId,
  templateId: k.templateId,
  slot: k.slot,
  rev,
  values,
  ...extra,
})

let dbCount = 0
const open: EntryPipelineImpl[] = []
function pipeline(server: ReturnType<typeof fakeServer>, dbName: string, user: number | null = 1) {
  const p = createEntryPipeline({ dbName, send: (s) => server.send(s), retryDelays: [], user: () => user })
  open.push(p)
  return p
}
afterEach(() => {
  for (const p of open.splice(0)) p.close()
})
const freshDb = () => `entry-test-${++dbCount}`

describe('drafts', () => {
  it('keeps the values typed, survives a reload, and forgets them when dropped', async () => {
    const server = fakeServer()
    const name = freshDb()
    const p = pipeline(server, name)
    expect(await p.loadDraft(key())).toBeNull()
    p.keepDraft(key(), { values: { '1': 'a' }, rows: {} })
    p.keepDraft(key(), { values: { '1': 'ab' }, rows: {} })
    p.keepDraft(key(), { values: { '1': 'abc' }, rows: { s: [{ '2': 'x' }] } })
    expect(p.stateOf(key())).toEqual({ kind: 'unsaved' })
    await p.settled()
    p.close()

    const again = pipeline(server, name)
    expect(await again.loadDraft(key())).toEqual({ values: { '1': 'abc' }, rows: { s: [{ '2': 'x' }] } })
    await again.settled()
    expect(again.stateOf(key())).toEqual({ kind: 'unsaved' })
    expect(await again.loadDraft(key(8))).toBeNull()
    await again.dropDraft(key())
    expect(await again.loadDraft(key())).toBeNull()
    expect(again.stateOf(key()).kind).toBe('saved')
  })

  it('a drop is not undone by a write still waiting', async () => {
    const p = pipeline(fakeServer(), freshDb())
    p.keepDraft(key(), { values: { '1': 'a' }, rows: {} })
    await p.dropDraft(key())
    await p.settled()
    expect(await p.loadDraft(key())).toBeNull()
  })

  it('a draft kept while a drop is under way stays, and the form stays unsaved', async () => {
    const p = pipeline(fakeServer(), freshDb())
    p.keepDraft(key(), { values: { '1': 'a' }, rows: {} })
    const drop = p.dropDraft(key())
    p.keepDraft(key(), { values: { '1': 'ab' }, rows: {} })
    await drop
    await p.settled()
    expect(await p.loadDraft(key())).toEqual({ values: { '1': 'ab' }, rows: {} })
    expect(p.stateOf(key())).toEqual({ kind: 'unsaved' })
  })
})

describe('saving', () => {
  it('sends a save when the server is reachable and reports it saved', async () => {
    const server = fakeServer()
    const p = pipeline(server, freshDb())
    const states: string[] = []
    p.subscribe(key(), () => states.push(p.stateOf(key()).kind))
    const outcome = await p.submit(key(), saveOf(key(), { '1': '5' }))
    expect(outcome.kind).toBe('saved')
    expect(p.stateOf(key())).toEqual({ kind: 'saved', at: '2026-11-26 12:00:00' })
    expect(states).toContain('sending')
    expect(server.sent).toHaveLength(1)
  })

  it('queues saves while the server is unreachable; the outbox survives a reload and drains in order', async () => {
    const server = fakeServer()
    const name = freshDb()
    server.up = false
    const p = pipeline(server, name)
    const a = key(7)
    const b = key(8)
    expect(await p.submit(a, saveOf(a, { '1': 'first' }))).toEqual({ kind: 'queued' })
    expect(p.stateOf(a)).toEqual({ kind: 'queued', count: 1 })
    expect(await p.submit(b, saveOf(b, { '1': 'second' }))).toEqual({ kind: 'queued' })
    expect(p.stateOf(a)).toEqual({ kind: 'queued', count: 2 })
    expect(p.stateOf(b)).toEqual({ kind: 'queued', count: 2 })
    expect(server.sent).toHaveLength(0)
    p.close()

    // A reload while still offline: the queue is read back and shown.
    const again = pipeline(server, name)
    await again.settled()
    await again.flush()
    expect(again.stateOf(b)).toEqual({ kind: 'queued', count: 2 })

    server.up = true
    await again.flush()
    expect(server.sent.map((s) => s.values['1'])).toEqual(['first', 'second'])
    expect(again.stateOf(a).kind).toBe('saved')
    expect(again.stateOf(b).kind).toBe('saved')
    await again.flush()
    expect(server.sent).toHaveLength(2)
  })

  it('a later save of a form waiting in the outbox replaces it (no second save asking for a reason)', async () => {
    const server = fakeServer()
    server.up = false
    const p = pipeline(server, freshDb())
    await p.submit(key(), saveOf(key(), { '1': 'one' }))
    await p.submit(key(), saveOf(key(), { '1': 'two' }))
    expect(p.stateOf(key())).toEqual({ kind: 'queued', count: 1 })
    server.up = true
    await p.flush()
    expect(server.sent.map((s) => s.values['1'])).toEqual(['two'])
  })

  it('the next save of the screen, still on the old rev, goes from the rev its own queued save made', async () => {
    const server = fakeServer()
    server.up = false
    const p = pipeline(server, freshDb())
    await p.submit(key(), saveOf(key(), { '1': 'one' }))
    server.up = true
    await p.flush()
    const outcome = await p.submit(key(), saveOf(key(), { '1': 'two' }, 0, { reason: 'typo' }))
    expect(outcome.kind).toBe('saved')
    expect(server.sent.map((s) => [s.rev, s.recordId])).toEqual([
      [0, undefined],
      [1, 1],
    ])
  })

  it('keeps a draft typed after the save was queued, and drops the one the save carried', async () => {
    const server = fakeServer()
    server.up = false
    const p = pipeline(server, freshDb())
    p.keepDraft(key(7), { values: { '1': 'a' }, rows: {} })
    await p.settled()
    await p.submit(key(7), saveOf(key(7), { '1': 'a' }))
    await new Promise((r) => setTimeout(r, 5))
    p.keepDraft(key(7), { values: { '1': 'ab' }, rows: {} })
    p.keepDraft(key(8), { values: { '1': 'x' }, rows: {} })
    await p.settled()
    await p.submit(key(8), saveOf(key(8), { '1': 'x' }))
    server.up = true
    await p.flush()
    expect(await p.loadDraft(key(7))).toEqual({ values: { '1': 'ab' }, rows: {} })
    expect(p.stateOf(key(7))).toEqual({ kind: 'unsaved' })
    expect(await p.loadDraft(key(8))).toBeNull()
    expect(p.stateOf(key(8)).kind).toBe('saved')
  })
})

describe('users of one browser', () => {
  it("another user neither sees nor sends the first one's drafts and saves; signed out, nothing is sent", async () => {
    const server = fakeServer()
    const name = freshDb()
    server.up = false
    const first = pipeline(server, name, 1)
    first.keepDraft(key(), { values: { '1': 'mine' }, rows: {} })
    await first.settled()
    await first.submit(key(), saveOf(key(), { '1': 'mine' }))
    first.close()
    server.up = true

    const signedOut = pipeline(server, name, null)
    await signedOut.flush()
    expect(server.sent).toHaveLength(0)
    signedOut.close()

    const second = pipeline(server, name, 2)
    expect(await second.loadDraft(key())).toBeNull()
    await second.flush()
    expect(server.sent).toHaveLength(0)
    expect(second.stateOf(key()).kind).toBe('saved')
    second.close()

    const back = pipeline(server, name, 1)
    await back.settled()
    await back.flush()
    expect(server.sent.map((s) => s.values['1'])).toEqual(['mine'])
  })
})

describe('refusals and conflicts', () => {
  it('a 409 becomes the conflict state with the values stored now, and is not sent again', async () => {
    const server = fakeServer()
    const p = pipeline(server, freshDb())
    server.saveAsOther(saveOf(key(), {}), { '1': 'theirs' })
    const outcome = await p.submit(key(), saveOf(key(), { '1': 'mine' }, 0))
    expect(outcome.kind).toBe('conflict')
    const state = p.stateOf(key())
    expect(state.kind).toBe('conflict')
    if (state.kind === 'conflict') expect(state.current.values).toEqual({ '1': 'theirs' })
    // Typing keeps the conflict on screen until it is resolved.
    p.keepDraft(key(), { values: { '1': 'mine!' }, rows: {} })
    expect(p.stateOf(key()).kind).toBe('conflict')
    await p.flush()
    expect(server.sent).toHaveLength(1)
    // The resolution is a save from the stored rev.
    expect((await p.submit(key(), saveOf(key(), { '1': 'merged' }, 1))).kind).toBe('saved')
  })

  it('a queued save meeting a conflict on reconnect gives its values back to the draft', async () => {
    const server = fakeServer()
    server.up = false
    const p = pipeline(server, freshDb())
    await p.submit(key(), saveOf(key(), { '1': 'mine' }, 0))
    server.up = true
    server.saveAsOther(saveOf(key(), {}), { '1': 'theirs' })
    await p.flush()
    expect(p.stateOf(key()).kind).toBe('conflict')
    expect(await p.loadDraft(key())).toEqual({ values: { '1': 'mine' }, rows: {} })
  })

  it('a lost answer of a save that did arrive is not taken for a conflict', async () => {
    const server = fakeServer()
    const p = pipeline(server, freshDb())
    const realSend = server.send
    let lose = true
    server.send = async (s) => {
      const r = await realSend(s)
      if (lose) {
        lose = false
        return { kind: 'offline' }
      }
      return r
    }
    expect(await p.submit(key(), saveOf(key(), { '1': 'v' }))).toEqual({ kind: 'queued' })
    await p.flush()
    expect(p.stateOf(key()).kind).toBe('saved')
    expect(server.records.get('7/3/')?.rev).toBe(1)
  })

  it('a refusal (4xx) is shown, never retried, and the next edit clears it', async () => {
    const server = fakeServer()
    const p = pipeline(server, freshDb())
    const outcome = await p.submit(key(), saveOf(key(), { '1': 'bad' }))
    expect(outcome).toEqual({ kind: 'refused', message: 'Please input a number' })
    expect(p.stateOf(key())).toEqual({ kind: 'refused', message: 'Please input a number' })
    await p.flush()
    await p.flush()
    expect(server.sent).toHaveLength(1)
    p.keepDraft(key(), { values: { '1': '5' }, rows: {} })
    expect(p.stateOf(key())).toEqual({ kind: 'unsaved' })
  })

  it('a refused save does not block the saves queued after it', async () => {
    const server = fakeServer()
    server.up = false
    const p = pipeline(server, freshDb())
    await p.submit(key(7), saveOf(key(7), { '1': 'bad' }))
    await p.submit(key(8), saveOf(key(8), { '1': 'good' }))
    server.up = true
    await p.flush()
    expect(p.stateOf(key(7)).kind).toBe('refused')
    expect(p.stateOf(key(8)).kind).toBe('saved')
  })
})

describe('classifyFailure', () => {
  const err = (init: Partial<ConstructorParameters<typeof ApiError>[0]>) =>
    new ApiError({ message: 'm', kind: 'code', method: 'POST', url: '/x', ...init })
  it('queues network failures, time-outs and unreachable gateways', () => {
    expect(classifyFailure(err({ kind: 'network' })).kind).toBe('offline')
    expect(classifyFailure(err({ kind: 'timeout' })).kind).toBe('offline')
    expect(classifyFailure(err({ kind: 'http', status: 503 })).kind).toBe('offline')
  })
  it('keeps the save when the session ended (it goes after signing in again)', () => {
    expect(classifyFailure(err({ status: 401, envelope: { code: 401, msg: 'x' } })).kind).toBe('offline')
    expect(classifyFailure(err({ status: 200, envelope: { code: 50014, msg: 'expired' } })).kind).toBe('offline')
  })
  it('reads the conflict from the 409 envelope; other 4xx are refusals with their message', () => {
    const current = { record: null, values: { '1': 'x' }, rows: {} }
    const conflict = err({ status: 409, envelope: { code: 409, msg: 'stale', data: { kind: 'conflict', current } } })
    expect(classifyFailure(conflict)).toEqual({ kind: 'conflict', current })
    expect(classifyFailure(err({ status: 409, message: 'closed', envelope: { code: 409, msg: 'closed' } }))).toEqual({
      kind: 'refused',
      message: 'closed',
    })
    expect(classifyFailure(err({ status: 400, message: 'bad value' }))).toEqual({ kind: 'refused', message: 'bad value' })
    expect(classifyFailure(err({ status: 403, message: 'no' })).kind).toBe('refused')
  })
})
