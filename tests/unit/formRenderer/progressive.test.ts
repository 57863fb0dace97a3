import { describe, expect, it } from 'vitest'
import { progressiveStep, splitBudget } from '../../../src/ui/progressive.ts'

describe('splitBudget: what a long form mounts first', () => {
  it('fills the sections in order and never more than the limit', () => {
    expect(splitBudget([2500, 1, 499], progressiveStep)).toEqual([progressiveStep, 0, 0])
    expect(splitBudget([100, 1, 499], 150)).toEqual([100, 1, 49])
    expect(splitBudget([100, 1, 499], 10_000)).toEqual([100, 1, 499])
    expect(splitBudget([3, 4], 0)).toEqual([0, 0])
    expect(splitBudget([3, 4], -5)).toEqual([0, 0])
  })

  it('a 3,000-field form mounts at most one step of fields per task, and all of them after ceil(3000 / step) tasks', () => {
    const counts = [2500, 500]
    let limit = progressiveStep
    let tasks = 1
    for (;;) {
      const mounted = splitBudget(counts, limit).reduce((a, b) => a + b, 0)
      expect(mounted).toBeLessThanOrEqual(tasks * progressiveStep)
      if (mounted === 3000) break
      limit += progressiveStep
      tasks++
    }
    expect(tasks).toBe(Math.ceil(3000 / progressiveStep))
  })
})
