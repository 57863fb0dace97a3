import type { RandomMethod } from '../../../contract/projects.ts'
import { planRules, type FullPlan, type PlanInput } from '../../../contract/randomization.ts'

/** The config tab's editable plan: texts as typed, turned into a PlanInput on save. */
export interface PlanForm {
  method: RandomMethod
  /** The ratio as typed: emptied, it is asked for, not read as 0. */
  groups: { code: string; name: string; ratio: string }[]
  /** As typed: '4, 6'. */
  blockSizes: string
  strataByCenter: boolean
  factors: { indicatorId: number; code: string; nameZh: string; nameEn: string }[]
  seed: string
  /** '' : the project's planned quantity. */
  listSize: string
}

/** Two groups 1:1 to start from: the least a randomized plan has. */
const starterGroups = [
  { code: 'A', name: '', ratio: '1' },
  { code: 'B', name: '', ratio: '1' },
]

export function formOf(plan: FullPlan): PlanForm {
  return {
    method: plan.method,
    groups: plan.groups.length > 0 ? plan.groups.map((g) => ({ code: g.code, name: g.name, ratio: String(g.ratio) })) : starterGroups,
    blockSizes: plan.blockSizes.join(', '),
    strataByCenter: plan.strataByCenter,
    factors: plan.factors.map((f) => ({ indicatorId: f.indicatorId, code: f.code, nameZh: f.nameZh, nameEn: f.nameEn })),
    seed: plan.seed,
    listSize: plan.listSize === null ? '' : String(plan.listSize),
  }
}

/** A problem as an i18n key and its parameters. */
export interface FormProblem {
  key: string
  params: (string | number)[]
}

/** The plan to send, or the first problem to show; the server checks the same rules again. */
export function inputOf(form: PlanForm): { input: PlanInput; problems: FormProblem[] } {
  const problems: FormProblem[] = []
  const sizeTexts = form.blockSizes.split(/[\s,，、]+/).filter(Boolean)
  const blockSizes = sizeTexts.map(Number)
  const sizesRead = !(form.method === 'stratified' && sizeTexts.some((s) => !/^\d+$/.test(s) || Number(s) < 1))
  if (!sizesRead) problems.push({ key: 'randomization.rule.blockSizesText', params: [] })
  const randomized = form.method !== 'none'
  // Groups whose emptied ratio is asked for: the shared rules' "at least 1" would say it again, and
  // the ratio sum that block sizes are measured by is not known yet.
  const unrated = new Set<string>()
  if (randomized) {
    for (const g of form.groups) {
      if (g.code.trim() === '') problems.push({ key: 'validatorMsg.pleaseInput', params: ['randomization.groupCode'] })
      else if (g.name.trim() === '') problems.push({ key: 'validatorMsg.pleaseInput', params: ['randomization.groupName'] })
      if (g.ratio.trim() === '') {
        problems.push({ key: 'randomization.ratioRequired', params: [g.code.trim()] })
        unrated.add(g.code.trim())
      }
    }
  }
  const listSize = form.listSize.trim() === '' ? null : Number(form.listSize)
  if (listSize !== null && !(Number.isInteger(listSize) && listSize >= 1)) {
    problems.push({ key: 'validatorMsg.pleaseInput', params: ['randomization.listSize'] })
  }
  const input: PlanInput = {
    method: form.method,
    groups: randomized
      ? form.groups.map((g) => {
          const ratio = Number(g.ratio)
          return { code: g.code.trim(), name: g.name.trim(), ratio: Number.isFinite(ratio) ? ratio : 0 }
        })
      : [],
    blockSizes: form.method === 'stratified' && sizesRead ? blockSizes : [],
    strataByCenter: form.method === 'stratified' && form.strataByCenter,
    factorIds: form.method === 'stratified' ? form.factors.map((f) => f.indicatorId) : [],
    seed: form.seed.trim(),
    listSize: Number.isInteger(listSize) ? listSize : null,
  }
  const shared = planRules(input).filter(
    (p) =>
      !(p.key === 'randomization.rule.ratio' && unrated.has(String(p.params[0]))) &&
      !(p.key === 'randomization.rule.blockMultiple' && unrated.size > 0),
  )
  problems.push(...shared.map((p) => ({ key: p.key, params: p.params })))
  return { input, problems }
}
