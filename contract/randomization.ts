/**
 * A project's randomization plan (config tab) and its allocation list: schemas, rules shared by
 * the client's form and the server, paths and typed endpoints.
 */
import { z } from 'zod'
import { endpoint } from './endpoint.ts'
import { idValue, integerParam } from './ids.ts'
import { randomMethods, type RandomMethod } from './projects.ts'

export const randomizationPaths = {
  plan: (id: number) => `api/projects/${id}/randomization`,
  generate: (id: number) => `api/projects/${id}/randomization/generate`,
  list: (id: number) => `api/projects/${id}/randomization/list`,
} as const

export const randomizationLimits = {
  groups: 20,
  groupCode: 30,
  groupName: 50,
  ratio: 20,
  blockSizes: 8,
  blockSize: 200,
  /** Strata keys are stored in 200 characters: a center and a few factor codes. */
  factors: 4,
  seed: 64,
  listSize: 100_000,
  /** Entries of one generated list over all strata. */
  entries: 200_000,
} as const

export const groupInput = z.object({
  code: z.string().trim().min(1).max(randomizationLimits.groupCode),
  name: z.string().trim().min(1).max(randomizationLimits.groupName),
  /** 0 passes the schema so that `planRules` refuses it with its own message. */
  ratio: z.number().int().min(0).max(randomizationLimits.ratio),
})
export type GroupInput = z.infer<typeof groupInput>

export const planInput = z.object({
  method: z.enum(randomMethods),
  groups: z.array(groupInput).max(randomizationLimits.groups).default([]),
  /** Stratified only: each block's size is drawn from these. */
  blockSizes: z.array(z.number().int().min(1).max(randomizationLimits.blockSize)).max(randomizationLimits.blockSizes).default([]),
  strataByCenter: z.boolean().default(false),
  /** Single choice indicators; each of their choices is a stratum. */
  factorIds: z.array(idValue).max(randomizationLimits.factors).default([]),
  /** '' keeps the stored seed (a new random one for a first plan). */
  seed: z.string().trim().max(randomizationLimits.seed).default(''),
  /** Entries per stratum; null: the project's planned quantity. */
  listSize: z.number().int().min(1).max(randomizationLimits.listSize).nullable().default(null),
})
export type PlanInput = z.infer<typeof planInput>

export type PlanRuleKey =
  | 'randomization.rule.twoGroups'
  | 'randomization.rule.ratio'
  | 'randomization.rule.groupTwice'
  | 'randomization.rule.blockSizes'
  | 'randomization.rule.blockMultiple'
  | 'randomization.rule.blockTwice'
  | 'randomization.rule.factorTwice'

export interface PlanProblem {
  field: 'groups' | 'blockSizes' | 'factorIds'
  key: PlanRuleKey
  params: (string | number)[]
}

export const isRandomized = (method: RandomMethod) => method !== 'none'

/**
 * The rules between a plan's fields, as message keys of the client and the server alike. A
 * randomized plan has two groups or more, each with a whole ratio from 1 to 20; a stratified one has
 * block sizes, each a multiple of the ratio sum so that every block holds each group in ratio.
 */
export function planRules(plan: Pick<PlanInput, 'method' | 'groups' | 'blockSizes' | 'factorIds'>): PlanProblem[] {
  const broken: PlanProblem[] = []
  if (!isRandomized(plan.method)) return broken
  if (plan.groups.length < 2) broken.push({ field: 'groups', key: 'randomization.rule.twoGroups', params: [] })
  const codes = new Set<string>()
  for (const g of plan.groups) {
    if (!Number.isInteger(g.ratio) || g.ratio < 1 || g.ratio > randomizationLimits.ratio)
      broken.push({ field: 'groups', key: 'randomization.rule.ratio', params: [g.code, randomizationLimits.ratio] })
    const code = g.code.toLowerCase()
    if (codes.has(code)) broken.push({ field: 'groups', key: 'randomization.rule.groupTwice', params: [g.code] })
    codes.add(code)
  }
  if (plan.method !== 'stratified') return broken
  if (plan.blockSizes.length === 0) broken.push({ field: 'blockSizes', key: 'randomization.rule.blockSizes', params: [] })
  const sum = ratioSum(plan.groups)
  const sizes = new Set<number>()
  for (const s of plan.blockSizes) {
    if (sum > 0 && s % sum !== 0) broken.push({ field: 'blockSizes', key: 'randomization.rule.blockMultiple', params: [s, sum] })
    if (sizes.has(s)) broken.push({ field: 'blockSizes', key: 'randomization.rule.blockTwice', params: [s] })
    sizes.add(s)
  }
  const factors = new Set<number>()
  for (const f of plan.factorIds) {
    if (factors.has(f)) broken.push({ field: 'factorIds', key: 'randomization.rule.factorTwice', params: [f] })
    factors.add(f)
  }
  return broken
}

export const ratioSum = (groups: readonly Pick<GroupInput, 'ratio'>[]) => groups.reduce((s, g) => s + g.ratio, 0)

export const planGroup = groupInput.extend({ id: z.number().int() })
export type PlanGroup = z.infer<typeof planGroup>

export const factorChoice = z.object({ code: z.string(), labelZh: z.string(), labelEn: z.string() })
export const planFactor = z.object({
  indicatorId: z.number().int(),
  code: z.string(),
  nameZh: z.string(),
  nameEn: z.string(),
  /** The indicator's choices when the plan was saved: the strata do not move when the dictionary does. */
  choices: z.array(factorChoice),
})
export type PlanFactor = z.infer<typeof planFactor>

/** One stratum of the current plan with its share of the list. */
export const stratum = z.object({
  /** '' without strata; else e.g. 'c3|sex=1' (see server/services/randomization/generate.ts stratumKey). */
  key: z.string(),
  centerId: z.number().int().nullable(),
  values: z.array(z.object({ indicatorId: z.number().int(), code: z.string() })),
  entries: z.number().int(),
  allocated: z.number().int(),
})
export type Stratum = z.infer<typeof stratum>

/** What a member who sets the project up reads (and a superuser). */
export const fullPlan = z.object({
  access: z.literal('full'),
  method: z.enum(randomMethods),
  groups: z.array(planGroup),
  blockSizes: z.array(z.number().int()),
  strataByCenter: z.boolean(),
  factors: z.array(planFactor),
  seed: z.string(),
  /** Entries per stratum as saved (null: the planned quantity); a stratified list rounds up to whole blocks. */
  listSize: z.number().int().nullable(),
  /** When the list was generated; null: no list. */
  generatedAt: z.string().nullable(),
  strata: z.array(stratum),
  /** Subjects randomized so far: once one is, the plan and the list are fixed. */
  allocated: z.number().int(),
  /** The plan has been saved (else this is the default shown before the first save). */
  saved: z.boolean(),
})
export type FullPlan = z.infer<typeof fullPlan>

/**
 * Everyone else learns the method and what enrolling asks (the stratification questions, and
 * whether a list is ready), which tells nothing of any allocation: a blinded member (the blinded
 * set) no group names either, and an unblinded one who enrols or enters data not the seed, the
 * block sizes or the list. Whoever enrols must not know the next allocation (allocation
 * concealment): with the list or the seed they could choose whom to enrol next.
 */
export const limitedPlan = z.object({
  access: z.enum(['blinded', 'concealed']),
  method: z.enum(randomMethods),
  factors: z.array(planFactor),
  listReady: z.boolean(),
})

export const planView = z.discriminatedUnion('access', [fullPlan, limitedPlan])
export type PlanView = z.infer<typeof planView>

export const allocationListQuery = z.object({
  stratum: z.string().max(200).optional(),
  after: z.string().max(500).optional(),
  limit: integerParam(z.number().int().min(1).max(1000)).default(100),
})
export type AllocationListQuery = z.infer<typeof allocationListQuery>

export const allocationRow = z.object({
  id: z.number().int(),
  stratum: z.string(),
  seq: z.number().int(),
  /** 0 for simple randomization. */
  block: z.number().int(),
  blockSize: z.number().int(),
  groupCode: z.string(),
  groupName: z.string(),
  subjectId: z.number().int().nullable(),
  subjectNo: z.string().nullable(),
  allocatedAt: z.string().nullable(),
})
export type AllocationRow = z.infer<typeof allocationRow>
export const allocationPage = z.object({ rows: z.array(allocationRow), next: z.string().nullable(), total: z.number().int() })
export type AllocationPage = z.infer<typeof allocationPage>

const id = idValue

export const getRandomization = endpoint({
  method: 'GET',
  input: z.object({ id }),
  output: planView,
  request: ({ id }) => ({ path: randomizationPaths.plan(id) }),
})

/** Replaces the plan and drops a generated list; refused once a subject is randomized. */
export const saveRandomization = endpoint({
  method: 'PUT',
  input: z.object({ id, plan: planInput }),
  output: planView,
  request: ({ id, plan }) => ({ path: randomizationPaths.plan(id), body: plan }),
})

/** (Re)generates the list from the stored seed; refused once a subject is randomized. */
export const generateAllocation = endpoint({
  method: 'POST',
  input: z.object({ id }),
  output: planView,
  request: ({ id }) => ({ path: randomizationPaths.generate(id) }),
})

/** One keyset page of the list, in stratum and sequence order. Those who read the full plan only. */
export const listAllocation = endpoint({
  method: 'GET',
  input: allocationListQuery.partial().extend({ id }),
  output: allocationPage,
  request: ({ id, ...query }) => ({ path: randomizationPaths.list(id), query }),
})
