/**
 * The allocation list, generated from a seed: a pure function, so the same plan and seed give
 * the same list on any machine, and the property tests can check every list it makes.
 */

/** cyrb128: four 32-bit hashes of a string, the usual seed for sfc32. */
function cyrb128(text: string): [number, number, number, number] {
  let h1 = 1779033703
  let h2 = 3144134277
  let h3 = 1013904242
  let h4 = 2773480762
  for (let i = 0; i < text.length; i++) {
    const k = text.charCodeAt(i)
    h1 = h2 ^ Math.imul(h1 ^ k, 597399067)
    h2 = h3 ^ Math.imul(h2 ^ k, 2869860233)
    h3 = h4 ^ Math.imul(h3 ^ k, 951274213)
    h4 = h1 ^ Math.imul(h4 ^ k, 2716044179)
  }
  h1 = Math.imul(h3 ^ (h1 >>> 18), 597399067)
  h2 = Math.imul(h4 ^ (h2 >>> 22), 2869860233)
  h3 = Math.imul(h1 ^ (h3 >>> 17), 951274213)
  h4 = Math.imul(h2 ^ (h4 >>> 19), 2716044179)
  h1 ^= h2 ^ h3 ^ h4
  h2 ^= h1
  h3 ^= h1
  h4 ^= h1
  return [h1 >>> 0, h2 >>> 0, h3 >>> 0, h4 >>> 0]
}

/** A seeded generator of floats in [0, 1): sfc32 (PractRand-tested), seeded by cyrb128 of the text. */
export function seededRandom(seed: string): () => number {
  let [a, b, c, d] = cyrb128(seed)
  return () => {
    a >>>= 0
    b >>>= 0
    c >>>= 0
    d >>>= 0
    let t = (a + b) | 0
    a = b ^ (b >>> 9)
    b = (c + (c << 3)) | 0
    c = (c << 21) | (c >>> 11)
    d = (d + 1) | 0
    t = (t + d) | 0
    c = (c + t) | 0
    return (t >>> 0) / 4294967296
  }
}

/** An integer in [0, n). */
const below = (random: () => number, n: number) => Math.floor(random() * n)

/** Fisher–Yates, in place. */
export function shuffle<T>(items: T[], random: () => number): T[] {
  for (let i = items.length - 1; i > 0; i--) {
    const j = below(random, i + 1)
    const t = items[i] as T
    items[i] = items[j] as T
    items[j] = t
  }
  return items
}

export interface StratumPart {
  centerId: number | null
  /** Factor indicator code and choice code, in the plan's factor order. */
  values: readonly { code: string; choice: string }[]
}

/** A stratum's stored key: '' without strata, else e.g. 'c3|sex=1|stage=II'. */
export function stratumKey(part: StratumPart): string {
  const parts = part.centerId === null ? [] : [`c${part.centerId}`]
  for (const v of part.values) parts.push(`${v.code}=${v.choice}`)
  return parts.join('|')
}

export interface StrataPlan {
  /** null: no strata by center. */
  centerIds: readonly number[] | null
  factors: readonly { indicatorId: number; code: string; choices: readonly string[] }[]
}

export interface StratumCell {
  key: string
  centerId: number | null
  values: { indicatorId: number; code: string }[]
}

/** Every stratum of a plan: centers × each factor's choices, in plan order. One stratum '' without any. */
export function strataOf(plan: StrataPlan): StratumCell[] {
  let cells: StratumCell[] = (plan.centerIds ?? [null]).map((centerId) => ({ key: '', centerId, values: [] }))
  for (const f of plan.factors) {
    cells = cells.flatMap((c) => f.choices.map((choice) => ({ ...c, values: [...c.values, { indicatorId: f.indicatorId, code: choice }] })))
  }
  const codeOf = new Map(plan.factors.map((f) => [f.indicatorId, f.code]))
  return cells.map((c) => ({
    ...c,
    key: stratumKey({ centerId: c.centerId, values: c.values.map((v) => ({ code: codeOf.get(v.indicatorId) ?? '', choice: v.code })) }),
  }))
}

export interface ListPlan {
  method: 'simple' | 'stratified'
  /** Allocation ratios, by group index. */
  ratios: readonly number[]
  /** Stratified: the sizes a block is drawn from, each a multiple of the ratio sum. */
  blockSizes: readonly number[]
  /** Entries per stratum; a stratified list rounds up to whole blocks. */
  listSize: number
  seed: string
}

export interface Entry {
  stratum: string
  /** 1, 2, … in each stratum. */
  seq: number
  /** 1, 2, … in each stratum; 0 for simple randomization. */
  block: number
  /** 0 for simple randomization. */
  blockSize: number
  /** Index into the plan's groups. */
  group: number
}

/** Simple randomization: each entry drawn on its own, with probability ratio / ratio sum. */
function simpleList(stratum: string, plan: ListPlan, random: () => number): Entry[] {
  const sum = plan.ratios.reduce((s, r) => s + r, 0)
  const out: Entry[] = []
  for (let seq = 1; seq <= plan.listSize; seq++) {
    let draw = below(random, sum)
    let group = 0
    while (draw >= (plan.ratios[group] ?? 0)) draw -= plan.ratios[group++] ?? 0
    out.push({ stratum, seq, block: 0, blockSize: 0, group })
  }
  return out
}

/** Permuted blocks: each block's size drawn from the plan's sizes, holding every group in ratio, shuffled. */
function blockList(stratum: string, plan: ListPlan, random: () => number): Entry[] {
  const sum = plan.ratios.reduce((s, r) => s + r, 0)
  const out: Entry[] = []
  for (let block = 1; out.length < plan.listSize; block++) {
    const size = plan.blockSizes[below(random, plan.blockSizes.length)] ?? sum
    const groups = plan.ratios.flatMap((r, g) => Array<number>((r * size) / sum).fill(g))
    for (const group of shuffle(groups, random)) out.push({ stratum, seq: out.length + 1, block, blockSize: size, group })
  }
  return out
}

/**
 * The list of one stratum. Each stratum draws from its own generator, seeded by the plan's seed
 * and the stratum's key, so adding a center leaves the other strata's lists as they were.
 */
export function generateStratum(stratum: string, plan: ListPlan): Entry[] {
  const random = seededRandom(`${plan.seed}\u0001${stratum}`)
  return plan.method === 'simple' ? simpleList(stratum, plan, random) : blockList(stratum, plan, random)
}

/** The most entries a stratum of this plan can hold: whole blocks cover the list size. */
export function maxEntriesPerStratum(plan: Pick<ListPlan, 'method' | 'blockSizes' | 'listSize'>): number {
  if (plan.method === 'simple') return plan.listSize
  // The exact count depends on the drawn sizes; the largest block bounds the overshoot.
  return plan.listSize + Math.max(0, ...plan.blockSizes) - 1
}
