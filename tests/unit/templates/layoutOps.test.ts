import { describe, expect, it } from 'vitest'
import { layout, type LayoutSection } from '../../../contract/crf.ts'
import * as ops from '../../../src/features/templates/layoutOps.ts'

const sec = (key: string, ids: number[], repeating = false): LayoutSection => ({
  key,
  title: '',
  repeating,
  items: ids.map((indicatorId) => ({ indicatorId, required: false })),
})
const ids = (s: ops.Sections) => s.map((x) => `${x.key}:${x.items.map((i) => i.indicatorId).join(',')}`)

const form: ops.Sections = [sec('a', [1, 2, 3]), sec('b', [4]), sec('c', [])]

describe('moving an item one place', () => {
  it('swaps within a section', () => {
    expect(ids(ops.moveBy(form, 2, -1))).toEqual(['a:2,1,3', 'b:4', 'c:'])
    expect(ids(ops.moveBy(form, 2, 1))).toEqual(['a:1,3,2', 'b:4', 'c:'])
  })
  it('crosses into the neighbour section at the border', () => {
    expect(ids(ops.moveBy(form, 3, 1))).toEqual(['a:1,2', 'b:3,4', 'c:'])
    expect(ids(ops.moveBy(form, 4, -1))).toEqual(['a:1,2,3,4', 'b:', 'c:'])
    expect(ids(ops.moveBy(form, 4, 1))).toEqual(['a:1,2,3', 'b:', 'c:4'])
  })
  it('stops at the very top and bottom, answering the same sections', () => {
    expect(ops.moveBy(form, 1, -1)).toBe(form)
    expect(ops.canMove(form, 1, -1)).toBe(false)
    expect(ops.canMove(form, 1, 1)).toBe(true)
    expect(ops.canMove(form, null, 1)).toBe(false)
    const bottom = ops.moveBy(form, 4, 1)
    expect(ops.canMove(bottom, 4, 1)).toBe(false)
    expect(ops.moveBy(form, 99, 1)).toBe(form)
  })
  it('keeps every item exactly once whatever the moves (a round trip restores the form)', () => {
    let s = form
    for (const [id, d] of [
      [1, 1],
      [1, 1],
      [1, 1],
      [1, 1],
      [1, 1],
    ] as const)
      s = ops.moveBy(s, id, d)
    expect(ops.placedIds(s)).toEqual(new Set([1, 2, 3, 4]))
    for (let i = 0; i < 5; i++) s = ops.moveBy(s, 1, -1)
    expect(ids(s)).toEqual(ids(form))
  })
})

describe('moveTo (drag and drop)', () => {
  it('puts the item at an index counted without it', () => {
    expect(ids(ops.moveTo(form, 1, { section: 0, index: 2 }))).toEqual(['a:2,3,1', 'b:4', 'c:'])
    expect(ids(ops.moveTo(form, 3, { section: 2, index: 0 }))).toEqual(['a:1,2', 'b:4', 'c:3'])
    expect(ids(ops.moveTo(form, 3, { section: 1, index: 99 }))).toEqual(['a:1,2', 'b:4,3', 'c:'])
    expect(ops.moveTo(form, 3, { section: 7, index: 0 })).toBe(form)
  })
})

describe('adding indicators', () => {
  it('places new ones after the selected item, skipping those already placed', () => {
    expect(ids(ops.insertItems(form, [9, 2, 8, 9], { after: 1 }))).toEqual(['a:1,9,8,2,3', 'b:4', 'c:'])
  })
  it('places them at the end of a named section, or of the last one', () => {
    expect(ids(ops.insertItems(form, [9], { sectionKey: 'b' }))).toEqual(['a:1,2,3', 'b:4,9', 'c:'])
    expect(ids(ops.insertItems(form, [9]))).toEqual(['a:1,2,3', 'b:4', 'c:9'])
  })
  it('gives an empty form its first section', () => {
    const s = ops.insertItems([], [5, 6])
    expect(ids(s)).toEqual(['s1:5,6'])
    expect(layout.safeParse(ops.toLayout(s)).success).toBe(true)
  })
  it('answers the same sections when nothing is new', () => {
    expect(ops.insertItems(form, [1, 4])).toBe(form)
  })
})

describe('sections and items', () => {
  it('adds sections with fresh keys the contract accepts', () => {
    const s = ops.addSection(ops.addSection([sec('s2', [])]))
    expect(s.map((x) => x.key)).toEqual(['s2', 's3', 's4'])
    expect(layout.safeParse(ops.toLayout(s)).success).toBe(true)
  })
  it('renames, marks repeating, moves and removes sections', () => {
    let s = ops.updateSection(form, 'b', { title: 'Drugs', repeating: true })
    expect(s[1]).toMatchObject({ title: 'Drugs', repeating: true })
    s = ops.moveSection(s, 'b', -1)
    expect(s.map((x) => x.key)).toEqual(['b', 'a', 'c'])
    expect(ops.moveSection(s, 'b', -1)).toBe(s)
    expect(ops.removeSection(s, 'a').map((x) => x.key)).toEqual(['b', 'c'])
  })
  it('marks an item required and removes it', () => {
    const s = ops.setRequired(form, 2, true)
    expect(s[0]?.items[1]).toEqual({ indicatorId: 2, required: true })
    expect(ids(ops.removeItem(s, 2))).toEqual(['a:1,3', 'b:4', 'c:'])
  })
  it('compares layouts by content', () => {
    expect(ops.sameLayout(form, JSON.parse(JSON.stringify(form)) as ops.Sections)).toBe(true)
    expect(ops.sameLayout(form, ops.setRequired(form, 1, true))).toBe(false)
  })
  it('finds the neighbour in reading order for ↑ / ↓', () => {
    expect(ops.neighbour(form, 3, 1)).toBe(4)
    expect(ops.neighbour(form, 4, -1)).toBe(3)
    expect(ops.neighbour(form, 4, 1)).toBeNull()
    expect(ops.neighbour(form, null, 1)).toBe(1)
    expect(ops.neighbour([], null, 1)).toBeNull()
  })
})
