/**
 * Issue 9 (tests): every generated allocation list is balanced within each block and stratum in
 * the plan's ratio, and the same seed gives the same list.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { planRules } from '../../contract/randomization.ts'
import {
  generateStratum,
  maxEntriesPerStratum,
  seededRandom,
  shuffle,
  strataOf,
  type Entry,
  type ListPlan,
} from '../../server/services/randomization/generate.ts'

/** A stratified plan that passes planRules: ratios 1–4 for 2–4 groups, sizes multiples of their sum. */
const blockPlan = fc
  .record({
    ratios: fc.array(fc.integer({ min: 1, max: 4 }), { minLength: 2, maxLength: 4 }),
    multiples: fc.uniqueArray(fc.integer({ min: 1, max: 4 }), { minLength: 1, maxLength: 3 }),
    listSize: fc.integer({ min: 1, max: 120 }),
    seed: fc.string({ maxLength: 20 }),
  })
  .map(({ ratios, multiples, listSize, seed }): ListPlan => {
    const sum = ratios.reduce((s, r) => s + r, 0)
    return { method: 'stratified', ratios, blockSizes: multiples.map((m) => m * sum), listSize, seed }
  })

const stratumName = fc.oneof(fc.constant(''), fc.string({ maxLength: 12 }))

function blocksOf(list: Entry[]): Entry[][] {
  const blocks = new Map<number, Entry[]>()
  for (const e of list) blocks.set(e.block, [...(blocks.get(e.block) ?? []), e])
  return [...blocks.values()]
}

describe('permuted blocks', () => {
  it('holds every group in ratio in every block, and covers the list size with whole blocks', () => {
    fc.assert(
      fc.property(blockPlan, stratumName, (plan, stratum) => {
        const list = generateStratum(stratum, plan)
        const sum = plan.ratios.reduce((s, r) => s + r, 0)
        expect(list.length).toBeGreaterThanOrEqual(plan.listSize)
        expect(list.length).toBeLessThanOrEqual(maxEntriesPerStratum(plan))
        expect(list.map((e) => e.seq)).toEqual(list.map((_, i) => i + 1))
        expect(list.every((e) => e.stratum === stratum)).toBe(true)
        const blocks = blocksOf(list)
        expect(blocks.map((b) => b[0]?.block)).toEqual(blocks.map((_, i) => i + 1))
        // Only the last block may be needed in part, yet it is generated whole.
        expect(list.length - (blocks.at(-1)?.length ?? 0)).toBeLessThan(plan.listSize)
        for (const block of blocks) {
          const size = block[0]?.blockSize ?? 0
          expect(plan.blockSizes).toContain(size)
          expect(block).toHaveLength(size)
          const counts = plan.ratios.map((_, g) => block.filter((e) => e.group === g).length)
          expect(counts).toEqual(plan.ratios.map((r) => (r * size) / sum))
        }
        // So the whole stratum is in ratio too.
        const totals = plan.ratios.map((_, g) => list.filter((e) => e.group === g).length)
        expect(totals.map((n) => n * sum)).toEqual(plan.ratios.map((r) => r * list.length))
      }),
    )
  })

  it('is identical for the same seed and stratum', () => {
    fc.assert(
      fc.property(blockPlan, stratumName, (plan, stratum) => {
        expect(generateStratum(stratum, { ...plan })).toEqual(generateStratum(stratum, plan))
      }),
    )
  })

  it('differs for different seeds', () => {
    fc.assert(
      fc.property(blockPlan, fc.string({ minLength: 1, maxLength: 20 }), fc.string({ minLength: 1, maxLength: 20 }), (plan, a, b) => {
        fc.pre(a !== b)
        // A long list of two groups: two seeds giving the same 200 entries is a 1 in 2^100 event.
        const long = { ...plan, ratios: [1, 1], blockSizes: [2, 4], listSize: 200 }
        const groups = (seed: string) => generateStratum('', { ...long, seed }).map((e) => e.group)
        expect(groups(a)).not.toEqual(groups(b))
      }),
    )
  })

  it('gives each stratum its own list from the same seed', () => {
    const plan: ListPlan = { method: 'stratified', ratios: [1, 1], blockSizes: [2, 4], listSize: 200, seed: 'seed' }
    const groups = (stratum: string) => generateStratum(stratum, plan).map((e) => e.group)
    expect(groups('c1')).not.toEqual(groups('c2'))
  })
})

describe('simple randomization', () => {
  it('draws exactly the list size, every entry of a group with a ratio, reproducibly', () => {
    fc.assert(
      fc.property(blockPlan, stratumName, (blocks, stratum) => {
        const plan: ListPlan = { ...blocks, method: 'simple', blockSizes: [] }
        const list = generateStratum(stratum, plan)
        expect(list).toHaveLength(plan.listSize)
        expect(list.every((e) => e.block === 0 && e.group >= 0 && e.group < plan.ratios.length)).toBe(true)
        expect(generateStratum(stratum, plan)).toEqual(list)
      }),
    )
  })

  it('follows the ratio over a long list', () => {
    const list = generateStratum('', { method: 'simple', ratios: [1, 3], blockSizes: [], listSize: 20_000, seed: 'ratio' })
    const share = list.filter((e) => e.group === 1).length / list.length
    expect(share).toBeGreaterThan(0.73)
    expect(share).toBeLessThan(0.77)
  })
})

describe('the generator pieces', () => {
  it('seededRandom gives floats in [0, 1), the same sequence for the same seed', () => {
    fc.assert(
      fc.property(fc.string(), (seed) => {
        const a = seededRandom(seed)
        const b = seededRandom(seed)
        for (let i = 0; i < 50; i++) {
          const x = a()
          expect(x).toBeGreaterThanOrEqual(0)
          expect(x).toBeLessThan(1)
          expect(b()).toBe(x)
        }
      }),
    )
  })

  it('shuffle keeps the items', () => {
    fc.assert(
      fc.property(fc.array(fc.integer()), fc.string(), (items, seed) => {
        expect([...shuffle([...items], seededRandom(seed))].sort()).toEqual([...items].sort())
      }),
    )
  })

  it('strata are centers × each factor choice, keyed as stored', () => {
    const cells = strataOf({
      centerIds: [3, 4],
      factors: [
        { indicatorId: 10, code: 'sex', choices: ['1', '2'] },
        { indicatorId: 11, code: 'stage', choices: ['I', 'II', 'III'] },
      ],
    })
    expect(cells).toHaveLength(12)
    expect(new Set(cells.map((c) => c.key)).size).toBe(12)
    expect(cells[0]).toEqual({
      key: 'c3|sex=1|stage=I',
      centerId: 3,
      values: [
        { indicatorId: 10, code: '1' },
        { indicatorId: 11, code: 'I' },
      ],
    })
    expect(strataOf({ centerIds: null, factors: [] })).toEqual([{ key: '', centerId: null, values: [] }])
  })
})

describe('planRules', () => {
  const groups = [
    { code: 'A', name: 'Drug', ratio: 1 },
    { code: 'B', name: 'Placebo', ratio: 2 },
  ]
  it('accepts a sound plan and no plan at all', () => {
    expect(planRules({ method: 'stratified', groups, blockSizes: [3, 6], factorIds: [1] })).toEqual([])
    expect(planRules({ method: 'none', groups: [], blockSizes: [], factorIds: [] })).toEqual([])
  })
  it('refuses one group, a ratio of 0, a block that is not a multiple of the ratio sum, twice listed parts', () => {
    const keys = (p: Parameters<typeof planRules>[0]) => planRules(p).map((x) => x.key)
    expect(keys({ method: 'simple', groups: groups.slice(0, 1), blockSizes: [], factorIds: [] })).toEqual(['randomization.rule.twoGroups'])
    expect(keys({ method: 'simple', groups: [groups[0]!, { ...groups[1]!, ratio: 0 }], blockSizes: [], factorIds: [] })).toEqual([
      'randomization.rule.ratio',
    ])
    expect(keys({ method: 'stratified', groups, blockSizes: [], factorIds: [] })).toEqual(['randomization.rule.blockSizes'])
    expect(keys({ method: 'stratified', groups, blockSizes: [4, 3, 3], factorIds: [2, 2] })).toEqual([
      'randomization.rule.blockMultiple',
      'randomization.rule.blockTwice',
      'randomization.rule.factorTwice',
    ])
    expect(keys({ method: 'simple', groups: [groups[0]!, { ...groups[1]!, code: 'a' }], blockSizes: [], factorIds: [] })).toEqual([
      'randomization.rule.groupTwice',
    ])
  })
})
