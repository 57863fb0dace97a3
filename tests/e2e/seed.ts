/** Records the pane and accessibility tests need, made through the API as an importer would. */
import type { CollectType } from '../../contract/crf.ts'
import { api } from './browser.ts'

/** Creates plain (choice-free) indicators with codes `${prefix}_1…n`; answers their ids. */
export async function seedIndicators(token: string, prefix: string, count: number): Promise<number[]> {
  const ids: number[] = []
  for (let i = 1; i <= count; i++) {
    const body =
      i % 2 === 0
        ? {
            code: `${prefix}_${i}`,
            nameZh: `就诊日期${i}`,
            nameEn: `Visit date ${i}`,
            type: 'date',
            display: 'input',
            dateFormat: 'YYYY-MM-DD',
          }
        : {
            code: `${prefix}_${i}`,
            nameZh: `收缩压${i}`,
            nameEn: `Systolic pressure ${i}`,
            type: 'blank',
            display: 'input',
            dataType: 'integer',
            unit: 'mmHg',
            minimum: 50,
            maximum: 250,
          }
    const res = await api<{ id: number }>('POST', '/api/dictionary/indicators', { token, body })
    if (res.body.code !== 0 || !res.body.data) throw new Error(`indicator ${body.code}: ${res.status} ${res.body.msg}`)
    ids.push(res.body.data.id)
  }
  return ids
}

/** A CRF holding `indicatorIds` in one section (of the given collect type, else the default); answers its id. */
export async function seedCrf(token: string, name: string, indicatorIds: readonly number[], collectType?: CollectType): Promise<number> {
  const created = await api<{ id: number }>('POST', '/api/templates', {
    token,
    body: { name, kind: 'crf', ...(collectType ? { collectType } : {}) },
  })
  if (created.body.code !== 0 || !created.body.data) throw new Error(`CRF ${name}: ${created.status} ${created.body.msg}`)
  const id = created.body.data.id
  const layout = {
    sections: [{ key: 's1', title: '', repeating: false, items: indicatorIds.map((indicatorId) => ({ indicatorId, required: false })) }],
  }
  const saved = await api('PUT', `/api/templates/${id}/layout`, { token, body: layout })
  if (saved.body.code !== 0) throw new Error(`layout of ${name}: ${saved.status} ${saved.body.msg}`)
  return id
}

/** An API answer's data, or a throw naming what failed. */
export async function ok<T>(what: string, answer: ReturnType<typeof api<T>>): Promise<T> {
  const res = await answer
  if (res.body.code !== 0) throw new Error(`${what}: ${res.status} ${res.body.msg}`)
  return res.body.data as T
}

/** Publishes CRF `id`; answers its published version's id. */
export async function publishCrf(token: string, id: number): Promise<number> {
  await ok('publish', api('POST', '/api/scientific/form/saveCrfFormGenerateToDb', { token, query: { id: String(id) } }))
  const versions = await ok<{ id: number; state: string }[]>('versions', api('GET', `/api/templates/${id}/versions`, { token }))
  return versions.find((v) => v.state === 'published')!.id
}

export interface SeededStudy {
  projectId: number
  centerId: number
  centerCode: string
  queueId: number
  subjects: { id: number; subjectNo: string }[]
}

/**
 * An active multi-center project `${p}` pinning `forms`, with one center, one queue ('Cohort A'),
 * the `visits` given, and `subjects` enrolled in them.
 */
export async function seedStudy(
  token: string,
  p: string,
  o: {
    forms: { templateId: number; versionId: number }[]
    visits?: { name: string; dayOffset: number; windowBefore: number; windowAfter: number; templateIds: number[] }[]
    subjects?: number
  },
): Promise<SeededStudy> {
  const code = `${p}C`.slice(0, 12).toUpperCase()
  const center = await ok<{ id: number }>(
    'center',
    api('POST', '/api/centers', { token, body: { code, nameZh: `中心 ${p}`, nameEn: `Center ${p}`, region: '' } }),
  )
  const project = await ok<{ id: number; queues: { id: number }[] }>(
    'project',
    api('POST', '/api/projects', {
      token,
      body: {
        scope: 'multi',
        base: { type: 'prospective', name: `Study ${p}`, number: `${p}-S`, groupType: 'group', plannedQuantity: 20, plannedGroups: 2 },
        queues: [{ name: 'Cohort A', key: 'A' }],
        forms: o.forms,
        centerIds: [center.id],
      },
    }),
  )
  for (const visit of o.visits ?? []) await ok('visit', api('POST', `/api/projects/${project.id}/visits`, { token, body: visit }))
  await ok('submit', api('POST', `/api/projects/${project.id}/submit`, { token }))
  await ok('pass', api('POST', `/api/projects/${project.id}/pass`, { token }))
  const queueId = project.queues[0]!.id
  const subjects: SeededStudy['subjects'] = []
  for (let i = 0; i < (o.subjects ?? 1); i++)
    subjects.push(
      await ok<{ id: number; subjectNo: string }>(
        'enrol',
        api('POST', `/api/projects/${project.id}/subjects`, {
          token,
          body: { queueId, centerId: center.id, checklist: { inclusion: [], exclusion: [] } },
        }),
      ),
    )
  return { projectId: project.id, centerId: center.id, centerCode: code, queueId, subjects }
}

/** A second project the caller sees, so that none is made their current one on their behalf (a project seen alone is). */
export const seedSecondProject = (token: string, p: string) => seedStudy(token, `${p}b`, { forms: [] })
