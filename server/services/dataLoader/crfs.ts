import type { LoadableCrf } from '../../../contract/dataLoader.ts'
import type { ServiceContext } from '../context.ts'
import { modeOf, pinnedForms, preposeOrder, versionById } from '../studyData.ts'

/**
 * getCrfByStudyId: the CRFs of the project a template can be made for, an upload can load into
 * and a download can hold — every pinned form at its pinned version, prepose CRFs first (the
 * order an upload writes in). The route's policy already decided the caller may load or download
 * data in this project.
 */
export async function loadableCrfs(ctx: ServiceContext, projectId: number): Promise<LoadableCrf[]> {
  const out: LoadableCrf[] = []
  for (const f of preposeOrder(await pinnedForms(ctx.db, projectId))) {
    const v = await versionById(ctx, f.versionId)
    const placed = new Set(v.indicators.map((i) => i.id))
    const plain = v.layout.sections.filter((s) => !s.repeating)
    out.push({
      templateId: f.templateId,
      versionId: f.versionId,
      version: v.version,
      name: f.name,
      collectType: f.collectType,
      mode: modeOf(f.collectType),
      fields: plain.reduce((n, s) => n + s.items.filter((i) => placed.has(i.indicatorId)).length, 0),
      subForms: v.layout.sections.length - plain.length,
    })
  }
  return out
}
