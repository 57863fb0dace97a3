import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { passwordMaxLength, passwordMinLength, passwordProblem } from '../../contract/password.ts'

const letters = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ'
const digits = '0123456789'
const alphanumeric = fc.constantFrom(...(letters + digits))
/** Exactly `n` characters: letters, then one digit at the end. */
const ofLength = (n: number) => 'a'.repeat(n - 1) + '1'

describe('passwordProblem (SPEC §5)', () => {
  it('accepts letters and digits with one of each, from 6 characters', () => {
    expect(passwordMinLength).toBe(6)
    expect(passwordProblem('abc123')).toBeNull()
    expect(passwordProblem('1a2b3c')).toBeNull()
    expect(passwordProblem('ABCDE9')).toBeNull()
  })

  it('asks for a password when it is empty, before any other rule', () => {
    expect(passwordProblem('')).toBe('required')
    expect(passwordProblem('', '')).toBe('required')
    expect(passwordProblem('', 'abc123')).toBe('required')
  })

  it.each([
    [1, 'length'],
    [5, 'length'],
    [6, null],
    [16, null], // SPEC's hint is 6-16, but 16 is not enforced
    [17, null],
    [passwordMaxLength, null],
    [passwordMaxLength + 1, 'tooLong'],
    [10_000, 'tooLong'],
  ])('a password of %i characters: %s', (n, problem) => {
    expect(passwordProblem(ofLength(n))).toBe(problem)
  })

  it.each([
    ['letters only', 'abcdefgh', 'needsDigit'],
    ['upper-case letters only', 'ABCDEFGH', 'needsDigit'],
    ['digits only', '12345678', 'needsLetter'],
  ])('names what %s lack', (_name, password, problem) => {
    expect(passwordProblem(password)).toBe(problem)
  })

  it.each([
    ['a symbol', 'abc123!'],
    ['an underscore', 'abc_123'],
    ['a hyphen', 'abc-123'],
    ['a space inside', 'abc 123'],
    ['a leading space', ' abc123'],
    ['a trailing newline', 'abc123\n'],
    ['a line break inside', 'abc\n123'],
    ['Chinese characters', '密码abc123'],
    ['accented letters', 'ábc123'],
    ['Cyrillic letters', 'абв123'],
    ['full-width digits', 'abc１２３'],
    ['Arabic-Indic digits', 'abc٣٤٥'],
    ['an emoji', 'abc123😀'],
    ['SQL', "a1' OR '1'='1"],
    ['HTML', '<b>abc123</b>'],
  ])('refuses %s', (_name, password) => {
    expect(passwordProblem(password)).toBe('charset')
  })

  it('reports the length before the characters when both are wrong', () => {
    expect(passwordProblem('a!')).toBe('length')
    expect(passwordProblem('!'.repeat(passwordMaxLength + 1))).toBe('tooLong')
  })

  it('refuses the old password again, case-sensitively', () => {
    expect(passwordProblem('abc123', 'abc123')).toBe('sameAsOld')
    expect(passwordProblem('ABC123', 'abc123')).toBeNull()
    expect(passwordProblem('abc1234', 'abc123')).toBeNull()
    expect(passwordProblem('abc123', undefined)).toBeNull()
  })

  it('reports a weak password before its sameness to the old one', () => {
    expect(passwordProblem('abc', 'abc')).toBe('length')
    expect(passwordProblem('abcdefg', 'abcdefg')).toBe('needsDigit')
  })

  it('accepts any letters-and-digits string with one of each, 6 to 128 long (property)', () => {
    const acceptable = fc
      .array(alphanumeric, { minLength: passwordMinLength, maxLength: passwordMaxLength })
      .map((chars) => chars.join(''))
      .filter((s) => /[A-Za-z]/.test(s) && /[0-9]/.test(s))
    fc.assert(
      fc.property(acceptable, (password) => passwordProblem(password) === null),
      { numRuns: 500 },
    )
  })

  it('refuses any string with a character that is not an ASCII letter or digit (property)', () => {
    const foreign = fc
      .integer({ min: 0, max: 0x10ffff })
      .map((codePoint) => String.fromCodePoint(codePoint))
      .filter((c) => !/^[A-Za-z0-9]$/.test(c))
    const around = fc.string({ unit: fc.constantFrom(...(letters + digits + '!@# _-中')), maxLength: 100 })
    fc.assert(
      fc.property(around, foreign, around, (before, c, after) => {
        const password = before + c + after
        return passwordProblem(password) !== null && passwordProblem(password, 'abc123') !== null
      }),
      { numRuns: 500 },
    )
  })
})
