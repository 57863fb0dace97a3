// What the designer offers commands (src/features/templates/designerStore.ts designerActions):
// required, section title, add section and sub form act on the designer's own state.
import { beforeEach, describe, expect, it } from 'vitest'
import { designerActions, designers, type DesignerState } from '../../../src/features/templates/designerStore.ts'

const path = '/dataDictionary/edit-crf-temp?id=7'

function state(over: Partial<DesignerState> = {}): DesignerState {
  const sections = [
    {
      key: 's1',
      title: 'Vitals',
      repeating: false,
      items: [
        { indicatorId: 11, required: false },
        { indicatorId: 12, required: true },
      ],
    },
    { key: 's2', title: '', repeating: false, items: [{ indicatorId: 13, required: false }] },
  ]
  return {
    templateId: 7,
    kind: 'crf',
    template: null,
    sections,
    saved: JSON.parse(JSON.stringify(sections)) as DesignerState['sections'],
    indicators: {},
    version: null,
    generate: null,
    selected: 11,
    loading: false,
    saving: false,
    failed: false,
    addOpen: false,
    focusSeq: 0,
    titleFocus: null,
    ...over,
  }
}

const d = () => designers[path] as DesignerState

beforeEach(() => {
  for (const k of Object.keys(designers)) delete designers[k]
})

describe('designerActions', () => {
  it('offers nothing while the designer loads or failed', () => {
    designers[path] = state({ loading: true })
    expect(designerActions(path)).toBeUndefined()
    designers[path] = state({ failed: true })
    expect(designerActions(path)).toBeUndefined()
    expect(designerActions('/elsewhere')).toBeUndefined()
  })

  it('toggles the selected item’s required flag, and makes the layout dirty', () => {
    designers[path] = state()
    const a = designerActions(path)
    expect(a?.selectedRequired).toBe(false)
    expect(a?.dirty).toBe(false)
    a?.toggleRequired()
    expect(d().sections[0]?.items[0]?.required).toBe(true)
    expect(designerActions(path)?.dirty).toBe(true)
    designerActions(path)?.toggleRequired()
    expect(d().sections[0]?.items[0]?.required).toBe(false)
  })

  it('sub form and section title act on the selected item’s section, else the last one', () => {
    designers[path] = state({ selected: 13 })
    expect(designerActions(path)?.section).toEqual({ key: 's2', repeating: false })
    designerActions(path)?.toggleRepeating()
    expect(d().sections.map((s) => s.repeating)).toEqual([false, true])
    designerActions(path)?.editSectionTitle()
    expect(d().titleFocus).toEqual({ key: 's2', seq: 1 })
    designers[path] = state({ selected: null })
    expect(designerActions(path)?.section?.key).toBe('s2')
    expect(designerActions(path)?.selectedRequired).toBeNull()
  })

  it('adds a section and asks for the focus on its title', () => {
    designers[path] = state()
    designerActions(path)?.addSection()
    expect(d().sections.map((s) => s.key)).toEqual(['s1', 's2', 's3'])
    expect(d().titleFocus).toEqual({ key: 's3', seq: 1 })
    designerActions(path)?.addSection()
    expect(d().titleFocus).toEqual({ key: 's4', seq: 2 })
  })

  it('an empty designer has no section to rename or make a sub form', () => {
    designers[path] = state({ sections: [], saved: [], selected: null })
    expect(designerActions(path)?.section).toBeNull()
  })
})
