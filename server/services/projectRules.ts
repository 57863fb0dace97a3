import { baseRules, type FormPin, type ProjectBaseInput, type ProjectScope, type QueueInput } from '../../contract/projects.ts'
import type { Q } from '../db/query.ts'
import { diseaseExists, existingCenterIds, versionsByIds } from '../db/repositories/projectRefs.ts'
import { ServiceError } from './errors.ts'

/**
 * The checks a project's parts pass before any write, shared by the wizard (one transaction for
 * all of them) and the edit tabs (one each). Each refusal names the offending value.
 */

export async function checkBase(db: Q, base: ProjectBaseInput): Promise<void> {
  const [broken] = baseRules(base)
  if (broken) throw new ServiceError('badRequest', broken.key)
  if (base.diseaseId !== null && !(await diseaseExists(db, base.diseaseId))) {
    throw new ServiceError('badRequest', 'project.diseaseMissing', [base.diseaseId])
  }
}

/** Queue keys are unique in a project whatever their case. */
export function checkQueueKeys(queues: readonly Pick<QueueInput, 'key'>[]): void {
  const seen = new Set<string>()
  for (const q of queues) {
    const k = q.key.toLowerCase()
    if (seen.has(k)) throw new ServiceError('badRequest', 'queue.keyTwice', [q.key])
    seen.add(k)
  }
}

/** Centers come from the directory, once each; a single-center project has at most one. */
export async function checkCenters(db: Q, scope: ProjectScope, ids: readonly number[]): Promise<void> {
  const seen = new Set<number>()
  for (const id of ids) {
    if (seen.has(id)) throw new ServiceError('badRequest', 'center.twice', [id])
    seen.add(id)
  }
  if (scope === 'single' && ids.length > 1) throw new ServiceError('badRequest', 'center.singleOnly')
  const known = await existingCenterIds(db, ids)
  const missing = ids.find((id) => !known.has(id))
  if (missing !== undefined) throw new ServiceError('badRequest', 'center.notInDirectory', [missing])
}

/** Each CRF or question group once, each pinned to a published version of itself. */
export async function checkPins(db: Q, pins: readonly FormPin[]): Promise<void> {
  const seen = new Set<number>()
  for (const p of pins) {
    if (seen.has(p.templateId)) throw new ServiceError('badRequest', 'form.twice', [p.templateId])
    seen.add(p.templateId)
  }
  const versions = new Map(
    (
      await versionsByIds(
        db,
        pins.map((p) => p.versionId),
      )
    ).map((v) => [v.id, v]),
  )
  for (const p of pins) {
    const v = versions.get(p.versionId)
    if (!v || v.template_id !== p.templateId || v.state !== 'published') {
      throw new ServiceError('badRequest', 'form.notPublished', [p.templateId, p.versionId])
    }
  }
}
