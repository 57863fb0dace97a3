import { beforeEach, describe, expect, it } from 'vitest'
import { compareState, pair, partnerOf, revealInPartner, showForm, unpair } from '../../../src/features/subjects/detail/compareStore.ts'
import { fieldSelector } from '../../../src/features/subjects/detail/fieldDom.ts'
import { ind } from '../formRenderer/support.ts'

const a = '/project/patientDetail?studyId=1&id=2'
const b = '/project/patientDetail?studyId=1&id=3'
const c = '/project/patientDetail?studyId=1&id=4'

describe('compare panes', () => {
  beforeEach(() => {
    compareState.pairs = []
    compareState.reveal = {}
  })

  it('pairs two panes both ways; a new pair replaces the old one of either pane', () => {
    pair(a, b)
    expect(partnerOf(compareState.pairs, a)).toBe(b)
    expect(partnerOf(compareState.pairs, b)).toBe(a)
    pair(c, b)
    expect(partnerOf(compareState.pairs, a)).toBeNull()
    expect(partnerOf(compareState.pairs, c)).toBe(b)
    unpair(b)
    expect(compareState.pairs).toEqual([])
  })

  it("asks only the partner to show a field, at the asking pane's height, each time anew", () => {
    pair(a, b)
    revealInPartner(a, '#x', 120)
    const first = compareState.reveal[b]
    revealInPartner(a, '#x', 80)
    expect(compareState.reveal[b]?.selector).toBe('#x')
    expect(compareState.reveal[b]?.offset).toBe(80)
    expect(compareState.reveal[b]?.seq).toBeGreaterThan(first?.seq ?? Infinity)
    expect(compareState.reveal[a]).toBeUndefined()
    revealInPartner(c, '#y', 0)
    expect(Object.keys(compareState.reveal)).toEqual([b])
  })

  it('keeps what a pane shows out of the proxy and forgets it on close', () => {
    const form = { templateId: 7, definition: { layout: { sections: [] }, indicators: [] }, data: { values: { '1': 'x' }, rows: {} } }
    showForm(a, form)
    expect(compareState.forms[a]?.data).toBe(form.data)
    showForm(a, null)
    expect(compareState.forms[a]).toBeUndefined()
  })
})

describe('field selectors', () => {
  const f = ind({ id: 301, code: 'weight_2', type: 'blank', display: 'input' })
  const def = { layout: { sections: [] }, indicators: [f] }
  it('name a plain field directly in its section, a row field in its row', () => {
    expect(fieldSelector(def, { indicatorId: 301 })).toBe('.form-section:not(.form-subform) > [data-testid="field-weight_2"]')
    expect(fieldSelector(def, { indicatorId: 301, section: 'meds', row: 2 })).toBe(
      '[data-testid="row-meds-2"] > [data-testid="field-weight_2"]',
    )
    expect(fieldSelector(def, { indicatorId: 999 })).toBeNull()
  })
})
