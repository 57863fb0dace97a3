/** Records the pane and accessibility tests need, made through the API as an importer would. */
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

/** A CRF holding `indicatorIds` in one section; answers its id. */
export async function seedCrf(token: string, name: string, indicatorIds: readonly number[]): Promise<number> {
  const created = await api<{ id: number }>('POST', '/api/templates', { token, body: { name, kind: 'crf' } })
  if (created.body.code !== 0 || !created.body.data) throw new Error(`CRF ${name}: ${created.status} ${created.body.msg}`)
  const id = created.body.data.id
  const layout = {
    sections: [{ key: 's1', title: '', repeating: false, items: indicatorIds.map((indicatorId) => ({ indicatorId, required: false })) }],
  }
  const saved = await api('PUT', `/api/templates/${id}/layout`, { token, body: layout })
  if (saved.body.code !== 0) throw new Error(`layout of ${name}: ${saved.status} ${saved.body.msg}`)
  return id
}
