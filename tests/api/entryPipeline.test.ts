/**
 * The browser's save pipeline (src/features/subjects/entry/entryPipeline.ts) through the real
 * client against the real server, on the database of this run: a save arrives, a stale one
 * becomes a conflict carrying the stored values, a refused value is refused with its message
 * and each refused field's and never sent again, and a save made while the server cannot be reached waits in the
 * outbox and arrives when it is back. IndexedDB is fake-indexeddb.
 */
import 'fake-indexeddb/auto'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { templatePaths, type Template, type TemplateVersion } from '../../contract/crf.ts'
import { dictionaryPaths, type Indicator } from '../../contract/dictionary.ts'
import type { ProjectDetail } from '../../contract/projects.ts'
import { studyDataPaths, type FormInstance, type FormSave } from '../../contract/studyData.ts'
import type { EnrolledSubject } from '../../contract/subjects.ts'
import { configureApi } from '../../src/api/client.ts'
import { createEntryPipeline, type EntryPipelineImpl } from '../../src/features/subjects/entry/entryPipeline.ts'
import type { EntryKey } from '../../src/features/subjects/entry/pipeline.ts'
import { memoryCookieStorage, setCookieStorage, setToken } from '../../src/state/session.ts'
import { apiCalls, type Payload } from '../support/apiCalls.ts'
import { testApp, type TestApp } from '../support/testApp.ts'

let t: TestApp
let base = ''
let downBase = ''
const tokens: Record<string, string> = {}
let as = 'ra'
const { call, data } = apiCalls(
  () => t,
  () => tokens[as]!,
  '/',
)
const post = (path: string, body?: Payload) => call('POST', path, body)
let project: ProjectDetail
let subject: EnrolledSubject
let crf: Template
let age: Indicator
const pipelines: EntryPipelineImpl[] = []
let dbSerial = 0

const useServer = (baseURL: string) =>
  configureApi({
    baseURL,
    timeout: 5000,
    toast: () => undefined,
    confirmRelogin: async () => false,
    forceLogout: () => undefined,
    reload: () => undefined,
    language: () => 'en',
  })

beforeAll(async () => {
  t = await testApp()
  await t.createUser('ra', 'Research1', { roles: ['researchAdmin'] })
  await t.createUser('auditor', 'Research1', { roles: ['researchAdmin'] })
  for (const u of ['ra', 'auditor']) tokens[u] = await t.signIn(u, 'Research1')
  const at = new Date().toISOString()
  const center = await t.db.kysely
    .insertInto('center')
    .values({ code: 'PL', name_zh: '中心PL', name_en: 'Center PL', created_at: at, updated_at: at })
    .returning('id')
    .executeTakeFirstOrThrow()
  age = data<Indicator>(
    await post(dictionaryPaths.indicators, {
      code: 'PL_AGE',
      nameZh: '年龄',
      nameEn: 'Age',
      type: 'blank',
      display: 'input',
      dataType: 'integer',
    }),
  )
  crf = data<Template>(await post(templatePaths.list, { kind: 'crf', name: '基线PL', collectType: 'object' }))
  data(
    await call('PUT', templatePaths.layout(crf.id), {
      sections: [{ key: 's1', title: 's1', items: [{ indicatorId: age.id, required: false }] }],
    }),
  )
  data(await post(`${templatePaths.publishCrf}?id=${crf.id}`))
  const version = data<TemplateVersion>(await call('GET', templatePaths.version(crf.id, 1)))
  project = data<ProjectDetail>(
    await post('api/projects', {
      scope: 'multi',
      base: { type: 'prospective', name: '管道研究', number: 'PL-1', groupType: 'group', plannedQuantity: 10, plannedGroups: 2 },
      queues: [{ name: '队列甲', key: 'A' }],
      forms: [{ templateId: crf.id, versionId: version.id }],
      centerIds: [center.id],
    }),
  )
  data(await post(`api/projects/${project.id}/submit`))
  as = 'auditor'
  data(await post(`api/projects/${project.id}/pass`))
  as = 'ra'
  subject = data<EnrolledSubject>(
    await post(`api/projects/${project.id}/subjects`, {
      queueId: project.queues[0]!.id,
      centerId: center.id,
      checklist: { inclusion: [], exclusion: [] },
    }),
  )

  await t.app.listen({ port: 0, host: '127.0.0.1' })
  base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}/`
  // A port that was just free: connections to it are refused, as to a server that is down.
  const closed = http.createServer()
  await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve))
  downBase = `http://127.0.0.1:${(closed.address() as AddressInfo).port}/`
  await new Promise<void>((resolve) => closed.close(() => resolve()))
  setCookieStorage(memoryCookieStorage())
  setToken(tokens.ra!)
  // The client logs refusals and failures; they are the cases here.
  vi.spyOn(console, 'warn').mockImplementation(() => undefined)
  vi.spyOn(console, 'error').mockImplementation(() => undefined)
})
afterAll(async () => {
  for (const p of pipelines) p.close()
  vi.restoreAllMocks()
  await t.close()
})

const pipeline = () => {
  const p = createEntryPipeline({ dbName: `entry-api-${++dbSerial}`, retryDelays: [], user: () => 1 })
  pipelines.push(p)
  return p
}
const key = (): EntryKey => ({ studyId: project.id, subjectId: subject.id, templateId: crf.id, slot: '' })
const save = (value: string, rev: number, extra: Partial<FormSave> = {}): FormSave => ({
  studyId: project.id,
  objectId: subject.id,
  templateId: crf.id,
  slot: '',
  rev,
  values: { [String(age.id)]: value },
  ...extra,
})
const stored = async () =>
  data<FormInstance>(await call('GET', `${studyDataPaths.form}?studyId=${project.id}&objectId=${subject.id}&templateId=${crf.id}`))

describe('the save pipeline against the server', () => {
  it('saves, reports a stale save as a conflict with the stored values, and refuses a bad value once', async () => {
    useServer(base)
    const p = pipeline()
    const first = await p.submit(key(), save('40', 0))
    expect(first.kind).toBe('saved')
    expect(p.stateOf(key()).kind).toBe('saved')
    expect((await stored()).values).toEqual({ [String(age.id)]: '40' })

    // Another browser that read the form before that save.
    const other = pipeline()
    const stale = await other.submit(key(), save('41', 0))
    expect(stale.kind).toBe('conflict')
    const state = other.stateOf(key())
    expect(state.kind).toBe('conflict')
    if (state.kind === 'conflict') {
      expect(state.current.values).toEqual({ [String(age.id)]: '40' })
      expect(state.current.record?.rev).toBe(1)
    }
    expect(await other.loadDraft(key())).toEqual({ values: { [String(age.id)]: '41' }, rows: {} })

    const bad = await other.submit(key(), save('forty', 1, { reason: 'typo' }))
    expect(bad.kind).toBe('refused')
    if (bad.kind === 'refused') {
      expect(bad.message).toMatch(/Age/)
      // Each refused field with its message, for the form to mark it.
      expect(bad.fields).toEqual({ [`f:${age.id}`]: { key: 'validatorMsg.integer', params: [] } })
    }
    expect(other.stateOf(key())).toMatchObject({ kind: 'refused', fields: { [`f:${age.id}`]: { key: 'validatorMsg.integer' } } })
    await other.flush()
    expect((await stored()).record?.rev).toBe(1)
  })

  it('queues a save while the server cannot be reached and sends it when it is back', async () => {
    const rev = (await stored()).record?.rev ?? 0
    useServer(downBase)
    const p = pipeline()
    expect(await p.submit(key(), save('52', rev, { reason: 'corrected' }))).toEqual({ kind: 'queued' })
    expect(p.stateOf(key())).toEqual({ kind: 'queued', count: 1 })
    expect((await stored()).values).toEqual({ [String(age.id)]: '40' })

    useServer(base)
    await p.flush()
    expect(p.stateOf(key()).kind).toBe('saved')
    const now = await stored()
    expect(now.values).toEqual({ [String(age.id)]: '52' })
    expect(now.record?.rev).toBe(rev + 1)
  })
})
