import type { Kysely } from 'kysely'
import type { Database } from '../db/database.ts'
import { insertMissingDiseases, insertMissingTimelineItems } from '../db/repositories/referenceData.ts'

/** SPEC §1: the diseases and treatment-timeline items every installation starts with. */
export const seedDiseases = [
  { name: '阿尔茨海默病', name_en: "Alzheimer's disease", icon: 'brain' },
  { name: '多发性硬化', name_en: 'Multiple sclerosis', icon: 'neuron' },
  { name: '前列腺癌', name_en: 'Prostate cancer', icon: 'prostate' },
  { name: '骨髓瘤', name_en: 'Myeloma', icon: 'bone' },
  { name: '肺癌', name_en: 'Lung cancer', icon: 'lungs' },
  { name: '糖尿病', name_en: 'Diabetes', icon: 'glucose' },
  { name: '白血病', name_en: 'Leukemia', icon: 'blood' },
] as const

export const seedTimeline = [
  { code: 'radiotherapy', name: '放疗', name_en: 'Radiotherapy', icon: 'radiation' },
  { code: 'chemotherapy', name: '化疗', name_en: 'Chemotherapy', icon: 'infusion' },
  { code: 'surgery', name: '手术', name_en: 'Surgery', icon: 'scalpel' },
  { code: 'pathology', name: '病理', name_en: 'Pathology', icon: 'microscope' },
  { code: 'examination', name: '检查', name_en: 'Examination', icon: 'stethoscope' },
] as const

/** Inserts what is missing, by name or code: safe on every start, never overwrites edits. */
export async function seedReferenceData(db: Kysely<Database>, now: Date): Promise<void> {
  const at = now.toISOString()
  await db.transaction().execute(async (trx) => {
    await insertMissingDiseases(
      trx,
      seedDiseases.map((d, i) => ({ ...d, sort: i, created_at: at, updated_at: at })),
    )
    await insertMissingTimelineItems(
      trx,
      seedTimeline.map((t, i) => ({ ...t, sort: i })),
    )
  })
}
