import type { ServiceContext } from '../context.ts'
import { ServiceError } from '../errors.ts'
import { modeOf, pinnedForms, preposeOrder, versionById } from '../studyData.ts'
import type { LoadForm } from './layout.ts'

/**
 * The CRFs of a project as data loading sees them: each pinned form with its pinned version (its
 * snapshot) and how its instances are told apart, prepose CRFs first. With `templateIds`, those
 * (in that order), refused with the id named when the project does not collect one.
 */
export async function loadForms(ctx: ServiceContext, projectId: number, templateIds?: readonly number[]): Promise<LoadForm[]> {
  const pinned = preposeOrder(await pinnedForms(ctx.db, projectId))
  const chosen = templateIds
    ? templateIds.map((id) => {
        const f = pinned.find((p) => p.templateId === id)
        if (!f) throw new ServiceError('notFound', 'form.notPinned', [id])
        return f
      })
    : pinned
  const out: LoadForm[] = []
  for (const f of chosen) {
    out.push({
      templateId: f.templateId,
      versionId: f.versionId,
      name: f.name,
      mode: modeOf(f.collectType),
      version: await versionById(ctx, f.versionId),
    })
  }
  return out
}
