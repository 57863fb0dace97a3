import { createDemoStudy, demoUsername, type DemoResult } from '../../server/demo/study.ts'
import type { ProjectAuthority } from '../../contract/projects.ts'
import type { BuiltinRoleKey } from '../../contract/permissions.ts'
import { dataLoaderPaths, type UploadResult } from '../../contract/dataLoader.ts'
import { multipart } from './multipart.ts'
import { testApp, type TestApp } from './testApp.ts'

/**
 * A running study for API tests: the demo study (3 centers, 2 queues, 4 published CRFs — baseline,
 * history with a sub form, a follow-up CRF on a 3-visit schedule, biomaterial — and samples),
 * enrolled small. The demo login `demo` is a research administrator who set it up; other people
 * are added with `member`, limited to centers and queues as a project role allows.
 */

export const demoPassword = 'Demo-2026-test'

export interface StudyFixture {
  t: TestApp
  demo: DemoResult
  projectId: number
  /** Center and queue ids of the project, in project order. */
  centerIds: number[]
  queueIds: number[]
  /** The demo's four CRFs (template ids). */
  formIds: Record<'baseline' | 'history' | 'followUp' | 'sample', number>
  /** Tokens by username; `demo` is there from the start. */
  tokens: Record<string, string>
  /**
   * A new researcher (system role researchAdmin) who is a member of the study with a role of these
   * authorities, limited to the given centers and queues when named; answers the token.
   */
  member(
    username: string,
    authorities: readonly ProjectAuthority[],
    over?: { centers?: readonly number[]; queues?: readonly number[]; blinded?: boolean; systemRole?: BuiltinRoleKey },
  ): Promise<string>
  /** uploadFile of a file to the study with the given query, by `token` (default: demo), answered in English. */
  upload(
    name: string,
    file: Buffer | string,
    query?: Record<string, string | number | boolean>,
    token?: string,
    lang?: 'zh' | 'en',
  ): Promise<UploadAnswer>
  close(): Promise<void>
}

export interface UploadAnswer {
  statusCode: number
  body: { code: number; msg: string; data: UploadResult & { duplicateOf?: { uploadId: number } } }
}

export async function studyFixture(opts: { subjects?: number } = {}): Promise<StudyFixture> {
  const t = await testApp()
  const demo = await createDemoStudy(t.app, t.db.kysely, {
    password: demoPassword,
    clock: { set: () => undefined },
    subjects: opts.subjects ?? 30,
    // The tests enrol subjects of their own, without stratification answers.
    randomized: false,
  })
  if (!demo) throw new Error('the demo study was there already')
  const db = t.db.kysely
  const centerIds = (
    await db.selectFrom('project_center').select('center_id').where('project_id', '=', demo.projectId).orderBy('sort').execute()
  ).map((r) => r.center_id)
  const queueIds = (
    await db.selectFrom('project_queue').select('id').where('project_id', '=', demo.projectId).orderBy('sort').execute()
  ).map((r) => r.id)
  const forms = await db
    .selectFrom('project_form as f')
    .innerJoin('template as t', 't.id', 'f.template_id')
    .select(['t.id', 't.name'])
    .where('f.project_id', '=', demo.projectId)
    .execute()
  const named = (part: string) => forms.find((f) => f.name.includes(part))!.id
  const formIds = { baseline: named('baseline'), history: named('history'), followUp: named('follow-up'), sample: named('biomaterial') }
  const tokens: Record<string, string> = { [demoUsername]: await t.signIn(demoUsername, demoPassword) }

  const member: StudyFixture['member'] = async (username, authorities, over = {}) => {
    const userId = await t.createUser(username, 'Research1', { roles: [over.systemRole ?? 'researchAdmin'] })
    const at = new Date().toISOString()
    const role = await db
      .insertInto('project_role')
      .values({
        project_id: demo.projectId,
        name: `${username} role`,
        authorities: JSON.stringify(authorities),
        all_queues: over.queues ? 0 : 1,
        all_centers: over.centers ? 0 : 1,
        blinded: over.blinded ? 1 : 0,
        builtin: null,
        created_at: at,
        updated_at: at,
      })
      .returning('id')
      .executeTakeFirstOrThrow()
    for (const queue_id of over.queues ?? []) await db.insertInto('project_role_queue').values({ role_id: role.id, queue_id }).execute()
    for (const center_id of over.centers ?? []) await db.insertInto('project_role_center').values({ role_id: role.id, center_id }).execute()
    await db
      .insertInto('project_member')
      .values({ project_id: demo.projectId, user_id: userId, role_id: role.id, created_at: at })
      .execute()
    tokens[username] = await t.signIn(username, 'Research1')
    return tokens[username]
  }

  const upload: StudyFixture['upload'] = async (name, file, query = {}, token = tokens[demoUsername]!, lang = 'en') => {
    const { payload, contentType } = multipart(name, typeof file === 'string' ? Buffer.from(file) : file)
    const qs = new URLSearchParams({
      studyId: String(demo.projectId),
      ...Object.fromEntries(Object.entries(query).map(([k, v]) => [k, String(v)])),
    })
    const res = await t.app.inject({
      method: 'POST',
      url: `/${dataLoaderPaths.upload}?${qs}`,
      payload,
      headers: { 'content-type': contentType, 'kr-d-token': token, 'accept-language': lang },
    })
    return { statusCode: res.statusCode, body: res.json() as UploadAnswer['body'] }
  }

  return { t, demo, projectId: demo.projectId, centerIds, queueIds, formIds, tokens, member, upload, close: () => t.close() }
}

/** A subject as `randomizeAlternately` left it. */
export interface RandomizedSubject {
  id: number
  subjectNo: string
  centerId: number
  group: { id: number; code: string; name: string } | null
}

/**
 * Gives the study two groups, Treatment (T) and Control (C), and its subjects in id order each
 * in turn (the last `unrandomized` none), written straight to the database as allocations leave them.
 */
export async function randomizeAlternately(s: StudyFixture, unrandomized = 0): Promise<RandomizedSubject[]> {
  const db = s.t.db.kysely
  const groups = await db
    .insertInto('project_group')
    .values([
      { project_id: s.projectId, code: 'T', name: 'Treatment', ratio: 1, sort: 0 },
      { project_id: s.projectId, code: 'C', name: 'Control', ratio: 1, sort: 1 },
    ])
    .returning(['id', 'code', 'name'])
    .execute()
  const subjects = await db
    .selectFrom('subject')
    .select(['id', 'subject_no', 'center_id'])
    .where('project_id', '=', s.projectId)
    .orderBy('id')
    .execute()
  const out: RandomizedSubject[] = []
  for (const [i, subject] of subjects.entries()) {
    const group = i >= subjects.length - unrandomized ? null : groups[i % 2]!
    if (group) await db.updateTable('subject').set({ group_id: group.id }).where('id', '=', subject.id).execute()
    out.push({ id: subject.id, subjectNo: subject.subject_no, centerId: subject.center_id, group })
  }
  return out
}
