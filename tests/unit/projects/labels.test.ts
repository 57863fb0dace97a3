/** How the project screens word a history row, a status and the enrolment progress. */
import { describe, expect, it } from 'vitest'
import { projectHistoryActions } from '../../../contract/projects.ts'
import { enrolmentIntent, historyActionKey, historyDetail, roleLabel } from '../../../src/features/projects/labels.ts'
import { hasKey, translate } from '../../../src/i18n/index.ts'

const en = (key: string) => translate('en', key)
const zh = (key: string) => translate('zh', key)

describe('project labels', () => {
  it('a transition reads as its two statuses and the reason, in the reader language', () => {
    const row = JSON.stringify({ id: 5, from: 'auditing', to: 'draft', reason: 'no consent form' })
    expect(historyDetail(row, en)).toBe('In audit → Draft · no consent form')
    expect(historyDetail(row, zh)).toBe('审核中 → 草稿 · no consent form')
    expect(historyDetail(JSON.stringify({ id: 5, changed: ['name', 'plannedQuantity'] }), en)).toBe('name, plannedQuantity')
  })

  it('what was added or changed reads as its name; a member with their role', () => {
    const visit = { projectId: 1, visitId: 2, name: 'V2 · month 6', dayOffset: 180, windowBefore: 14, windowAfter: 14, templateIds: [3] }
    expect(historyDetail(JSON.stringify(visit), en)).toBe('V2 · month 6')
    const member = { memberId: 2, userId: 2, name: 'Li Lei', roleId: 2, roleName: 'Data entry DBJ' }
    expect(historyDetail(JSON.stringify(member), en)).toBe('Li Lei · Data entry DBJ')
    expect(historyDetail(JSON.stringify({ roleId: 4, before: { name: 'A' }, after: { name: 'B' } }), en)).toBe('B')
  })

  it('any other detail is shown as written', () => {
    expect(historyDetail(null, en)).toBe('')
    expect(historyDetail('plain text', en)).toBe('plain text')
    expect(historyDetail('{"id":5}', en)).toBe('{"id":5}')
    expect(historyDetail(JSON.stringify({ from: 'draft', to: 'nowhere' }), en)).toBe('{"from":"draft","to":"nowhere"}')
  })

  it("every action of a project's history has its label in both languages", () => {
    const actions = projectHistoryActions
    for (const action of actions) {
      expect(hasKey(historyActionKey(action), 'zh'), action).toBe(true)
      expect(hasKey(historyActionKey(action), 'en'), action).toBe(true)
    }
    // Each reads differently: a queue's creation is not the project's.
    expect(new Set(actions.map(historyActionKey)).size).toBe(actions.length)
  })

  it('the enrolment colour changes at 30, 70 and 100 percent (SPEC §9)', () => {
    expect([0, 0.29, 0.3, 0.69, 0.7, 0.99, 1, 1.5].map(enrolmentIntent)).toEqual([
      'none',
      'none',
      'warning',
      'warning',
      'primary',
      'primary',
      'success',
      'success',
    ])
  })

  it('the built-in manager role is named in the reader language; others as given', () => {
    expect(roleLabel('项目管理员', en)).toBe('Project manager')
    expect(roleLabel('Data entry', en)).toBe('Data entry')
  })
})
