/** Sign-in lands on the project list (SPEC §2: the empty root path goes to project/multi-list) or the first granted screen. */
import { describe, expect, it } from 'vitest'
import { landingPath } from '../../../src/app/guard.ts'

describe('landing after sign-in', () => {
  it('goes to the multi-center project list when granted', () => {
    expect(landingPath(['dashboard', 'multiList', 'singleList'])).toBe('/project/multi-list')
  })

  it('else to the first screen of the menu the roles grant, skipping hidden screens', () => {
    expect(landingPath(['multiDetail', 'dictionaryList', 'auditLog'])).toBe('/dataDictionary/dictionaryList')
    expect(landingPath(['auditLog'])).toBe('/management/audit-log')
  })

  it('with no screen at all, to /401', () => {
    expect(landingPath([])).toBe('/401')
    expect(landingPath(['multiDetail'])).toBe('/401')
  })
})
