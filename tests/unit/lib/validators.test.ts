import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { translateIn } from '../../../src/i18n/index.ts'
import {
  hasErrors,
  httpLink,
  isBlank,
  isEmptyValue,
  isMobilePhone,
  isPositiveInteger,
  isPositiveNumber,
  lengthBetween,
  mobilePhone,
  passwordHintKey,
  positiveInteger,
  positiveNumber,
  renderMessage,
  required,
  validate,
  validateChangePassword,
  validateConfirmPassword,
  validateNewPassword,
  validateOldPassword,
  weightedLength,
  type Translate,
} from '../../../src/lib/validators.ts'

/** Shows which key and parameters a validator asked for. */
const keyOf: Translate = (key, params) => (params === undefined ? key : `${key}${JSON.stringify(params)}`)
const zh: Translate = (key, params) => translateIn('zh', key, params)
const en: Translate = (key, params) => translateIn('en', key, params)

const empties: unknown[] = [undefined, null, '', []]

/** Any character, astral ones included, with the 298/299 boundary and CJK drawn often. */
const anyChar = fc.oneof(
  fc.constantFrom('a', ' ', String.fromCharCode(298), String.fromCharCode(299), '中', '😀'),
  fc
    .integer({ min: 0, max: 0x10ffff })
    .filter((c) => c < 0xd800 || c > 0xdfff)
    .map((c) => String.fromCodePoint(c)),
)

describe('empty values', () => {
  it('are undefined, null, empty string and empty array for the optional validators', () => {
    for (const v of empties) expect(isEmptyValue(v)).toBe(true)
    for (const v of [' ', 0, false, [0], {}, 'a']) expect(isEmptyValue(v)).toBe(false)
  })
  it('include blank strings for required', () => {
    for (const v of [...empties, ' ', '\t\n ', '\u3000']) expect(isBlank(v)).toBe(true)
    for (const v of [0, false, ['x'], 'a', ' a ']) expect(isBlank(v)).toBe(false)
  })
  it('pass every validator but required', () => {
    const optional = [positiveNumber(), positiveInteger(), lengthBetween(2, 4), mobilePhone(), httpLink()]
    for (const check of optional) for (const v of empties) expect(check(v, keyOf)).toBeNull()
  })
})

describe('positive number', () => {
  const check = positiveNumber()
  it.each(['0', '7', '12', '3.50', '0.5', '00.1', '10.000'])('accepts %s', (v) => {
    expect(check(v, keyOf)).toBeNull()
  })
  it.each(['-1', '.5', '1.', '1e3', ' 1', '1 ', 'abc', '1.2.3', '+1', '１２', 'NaN', 'Infinity'])('refuses %j', (v) => {
    expect(check(v, keyOf)).toBe('validatorMsg.positiveNumber')
  })
  it('reads numbers as text', () => {
    expect(check(1.5, keyOf)).toBeNull()
    expect(check(0, keyOf)).toBeNull()
    expect(check(-2, keyOf)).toBe('validatorMsg.positiveNumber')
    expect(check(Number.NaN, keyOf)).toBe('validatorMsg.positiveNumber')
  })
  it('words its message in both languages', () => {
    expect(check('x', zh)).toBe('请输入正数')
    expect(check('x', en)).toBe('Please enter a positive number')
  })
  it('accepts a custom message', () => {
    expect(positiveNumber({ key: 'validatorMsg.number' })('x', en)).toBe('Please enter an integer or a decimal')
  })
  it('accepts every a.b of naturals and every fixed-point rendering of a non-negative number', () => {
    fc.assert(fc.property(fc.nat(), fc.nat(), (a, b) => isPositiveNumber(`${a}.${b}`) && isPositiveNumber(String(a))))
    fc.assert(
      fc.property(fc.double({ min: 0, max: 1e15, noNaN: true }), fc.integer({ min: 0, max: 6 }), (x, d) => isPositiveNumber(x.toFixed(d))),
    )
  })
  it('refuses every negative number', () => {
    fc.assert(fc.property(fc.integer({ min: 1 }), (n) => !isPositiveNumber(String(-n))))
  })
})

describe('positive integer', () => {
  const check = positiveInteger()
  it.each(['0', '1', '10', '907', '12345678901234567890'])('accepts %s', (v) => {
    expect(check(v, keyOf)).toBeNull()
  })
  it.each(['01', '00', '007', '1.0', '0.5', '-1', '-0', '+3', ' 3', '3 ', '1e2', 'a'])('refuses %j', (v) => {
    expect(check(v, keyOf)).toBe('validatorMsg.positiveInteger')
  })
  it("accepts '' (empty) and the numbers 0 and 7", () => {
    expect(check('', keyOf)).toBeNull()
    expect(check(0, keyOf)).toBeNull()
    expect(check(7, keyOf)).toBeNull()
    expect(check(7.5, keyOf)).toBe('validatorMsg.positiveInteger')
  })
  it('words its message in both languages', () => {
    expect(check('01', zh)).toBe('请输入0或正整数')
    expect(check('01', en)).toBe('Please enter zero or a positive integer')
  })
  it('accepts every natural written plainly and refuses it with a leading zero', () => {
    fc.assert(fc.property(fc.bigInt({ min: 0n, max: 10n ** 30n }), (n) => isPositiveInteger(n.toString())))
    fc.assert(fc.property(fc.nat(), (n) => !isPositiveInteger(`0${n}`)))
  })
})

describe('length between min and max', () => {
  it("counts code < 299 as 1 and others as 2: 'a中' = 3", () => {
    expect(weightedLength('a中')).toBe(3)
    expect(weightedLength('')).toBe(0)
    expect(weightedLength('abc')).toBe(3)
    expect(weightedLength('中文')).toBe(4)
    expect(weightedLength(String.fromCharCode(298))).toBe(1)
    expect(weightedLength(String.fromCharCode(299))).toBe(2)
    expect(weightedLength('é')).toBe(1)
    // One character outside the BMP is one character of weight 2, not two.
    expect(weightedLength('😀')).toBe(2)
  })
  it('is inclusive at both bounds', () => {
    const check = lengthBetween(2, 4)
    expect(check('a', keyOf)).toBe('validatorMsg.length[2,4]')
    expect(check('ab', keyOf)).toBeNull()
    expect(check('a中', keyOf)).toBeNull()
    expect(check('abcd', keyOf)).toBeNull()
    expect(check('中中', keyOf)).toBeNull()
    expect(check('abcde', keyOf)).toBe('validatorMsg.length[2,4]')
    expect(check('中中a', keyOf)).toBe('validatorMsg.length[2,4]')
    expect(check('中', keyOf)).toBeNull()
  })
  it('counts a blank string (it is not empty)', () => {
    expect(lengthBetween(2, 4)(' ', keyOf)).toBe('validatorMsg.length[2,4]')
  })
  it('words the message with both bounds', () => {
    expect(lengthBetween(2, 10)('a', en)).toBe('Length limits 2 to 10 characters')
    expect(lengthBetween(2, 10)('a', zh)).toBe('长度限制在2到10个字符')
  })
  it('refuses min above max', () => {
    expect(() => lengthBetween(5, 4)).toThrow(RangeError)
    expect(() => lengthBetween(4, 4)).not.toThrow()
  })
  it('is additive and between the character count and twice it', () => {
    fc.assert(
      fc.property(fc.string({ unit: anyChar }), fc.string({ unit: anyChar }), (a, b) => {
        const n = weightedLength(a)
        const chars = [...a].length
        return weightedLength(a + b) === n + weightedLength(b) && n >= chars && n <= 2 * chars
      }),
    )
    fc.assert(
      fc.property(
        fc.string({ unit: fc.integer({ min: 0, max: 127 }).map((c) => String.fromCharCode(c)) }),
        (a) => weightedLength(a) === a.length,
      ),
    )
  })
  it('agrees with the bounds for any string', () => {
    fc.assert(
      fc.property(fc.string({ unit: anyChar, minLength: 1, maxLength: 12 }), fc.nat(20), fc.nat(20), (s, x, y) => {
        const [min, max] = x <= y ? [x, y] : [y, x]
        const n = weightedLength(s)
        return (lengthBetween(min, max)(s, keyOf) === null) === (n >= min && n <= max)
      }),
    )
  })
})

describe('mobile phone', () => {
  const check = mobilePhone()
  it.each([
    '13800138000',
    '13000000000',
    '14100000000',
    '14500000000',
    '15000000000',
    '15900000000',
    '16200000000',
    '17000000000',
    '17800000000',
    '18800000000',
    '19100000000',
    '19900000000',
  ])('accepts %s', (v) => expect(check(v, keyOf)).toBeNull())
  it.each([
    '12800138000', // second digit 2
    '10800138000',
    '11800138000',
    '23800138000', // not starting with 1
    '1380013800', // 10 digits
    '138001380001', // 12 digits
    '14200000000', // 4 then 2 not allowed
    '14300000000',
    '15400000000', // 5 then 4 not allowed
    '16000000000', // 6 then 0 not allowed
    '16800000000',
    '17900000000', // 7 then 9 not allowed
    '19400000000', // 9 then 4 not allowed
    '+8613800138000',
    '138 0013 8000',
    '1380013800a',
  ])('refuses %s', (v) => expect(check(v, keyOf)).toBe('validatorMsg.phone'))
  it('uses validatorMsg.phone in both languages', () => {
    expect(check('12800138000', en)).toBe('Incorrect phone number')
    expect(check('12800138000', zh)).toBe('手机号码不正确')
  })
  it('accepts any 8 digits after an allowed prefix and nothing of another length', () => {
    const prefixes = ['130', '139', '145', '150', '153', '155', '162', '167', '170', '178', '180', '189', '190', '193', '195', '199']
    fc.assert(fc.property(fc.constantFrom(...prefixes), fc.stringMatching(/^\d{8}$/), (p, rest) => isMobilePhone(p + rest)))
    fc.assert(fc.property(fc.stringMatching(/^\d{0,20}$/), (s) => s.length === 11 || !isMobilePhone(s)))
  })
})

describe('required', () => {
  it('fails for undefined, null, empty array and blank strings with its own message', () => {
    const check = required({ key: 'login.usernameRequired' })
    for (const v of [undefined, null, [], '', '   ', '\n']) expect(check(v, en)).toBe('Please enter the username')
  })
  it('passes for values that are present, including 0 and false', () => {
    const check = required('validatorMsg.required')
    for (const v of ['a', ' a', 0, false, [''], {}]) expect(check(v, keyOf)).toBeNull()
  })
  it('translates ref-valued parameters, so the message follows the language', () => {
    const check = required({ key: 'validatorMsg.pleaseInput', params: [{ key: 'login.username' }] })
    expect(check('', zh)).toBe('请输入用户名')
    expect(check('', en)).toBe('Please input Username')
  })
  it('defaults to the generic message', () => {
    expect(required()('', en)).toBe('This is required')
    expect(required()('', zh)).toBe('此项为必填项')
  })
})

describe('httpLink', () => {
  it('accepts http and https addresses with a host only', () => {
    const check = httpLink()
    expect(check('https://example.org/a?b=1', keyOf)).toBeNull()
    expect(check('HTTP://example.org', keyOf)).toBeNull()
    for (const v of ['example.org', 'ftp://example.org', 'https://', 'http:// x', 'mailto:a@b.c', 'javascript:alert(1)'])
      expect(check(v, keyOf)).toBe('validatorMsg.link')
  })
})

describe('validate and renderMessage', () => {
  it('returns the first failing message in order', () => {
    const rules = [required('validatorMsg.required'), positiveInteger(), lengthBetween(1, 2)]
    expect(validate('', rules, keyOf)).toBe('validatorMsg.required')
    expect(validate('01', rules, keyOf)).toBe('validatorMsg.positiveInteger')
    expect(validate('123', rules, keyOf)).toBe('validatorMsg.length[1,2]')
    expect(validate('12', rules, keyOf)).toBeNull()
  })
  it('renders named parameters and nested refs', () => {
    expect(renderMessage({ key: 'k', params: { a: 1, b: { key: 'x' } } }, keyOf)).toBe('k{"a":1,"b":"x"}')
    expect(renderMessage('validatorMsg.exists', keyOf)).toBe('validatorMsg.exists')
    expect(renderMessage({ key: 'validatorMsg.exists', params: [{ key: 'login.username' }] }, en)).toBe('Username already exists')
  })
})

describe('change password (SPEC §5, rules of contract/password.ts)', () => {
  it('requires the old password', () => {
    expect(validateOldPassword('', zh)).toBe('请输入原密码')
    expect(validateOldPassword('', en)).toBe('Please enter the old password')
    expect(validateOldPassword('x', zh)).toBeNull()
  })
  it('requires a new password', () => {
    expect(validateNewPassword('', 'old1', zh)).toBe('请设置新密码')
    expect(validateNewPassword('', 'old1', en)).toBe('Please set a new password')
  })
  it('needs at least 6 characters; 16 is only a hint', () => {
    expect(validateNewPassword('ab12', 'old1', zh)).toBe('密码长度介于6到16位之间')
    expect(validateNewPassword('abc12', 'old1', zh)).toBe('密码长度介于6到16位之间')
    expect(validateNewPassword('abc123', 'old1', zh)).toBeNull()
    expect(validateNewPassword('abcdefgh12345678x', 'old1', zh)).toBeNull()
    expect(validateNewPassword('ab12', 'old1', en)).toBe('The password must be 6 to 16 characters long')
  })
  it('needs letters and digits only, at least one of each', () => {
    for (const p of ['abc12!', 'abc 123', '密码abc123']) expect(validateNewPassword(p, 'old1', zh)).toBe('密码只能包含数字和字母')
    expect(validateNewPassword('abc12!', 'old1', en)).toBe('The password can only contain digits and letters')
    expect(validateNewPassword('abcdefgh', 'old1', zh)).toBe('密码至少需要包含一个数字')
    expect(validateNewPassword('abcdefgh', 'old1', en)).toBe('The password needs at least one digit')
    expect(validateNewPassword('123456', 'old1', zh)).toBe('密码至少需要包含一个字母')
    expect(validateNewPassword('123456', 'old1', en)).toBe('The password needs at least one letter')
  })
  it('refuses the old password again', () => {
    expect(validateNewPassword('abc123', 'abc123', zh)).toBe('新密码不能与旧密码相同')
    expect(validateNewPassword('abc123', 'abc123', en)).toBe('The new password cannot be the same as the old one')
    expect(validateNewPassword('ABC123', 'abc123', zh)).toBeNull()
  })
  it('refuses absurdly long passwords with the bound in the message', () => {
    expect(validateNewPassword('a1'.repeat(65), 'old1', zh)).toBe('密码不能超过128位')
    expect(validateNewPassword('a1'.repeat(64), 'old1', zh)).toBeNull()
  })
  it('needs the confirmation equal to the new password', () => {
    expect(validateConfirmPassword('', 'abc123', zh)).toBe('请再次输入新密码')
    expect(validateConfirmPassword('', 'abc123', en)).toBe('Please enter the new password again')
    expect(validateConfirmPassword('abc124', 'abc123', zh)).toBe('两次密码输入不一致')
    expect(validateConfirmPassword('abc124', 'abc123', en)).toBe('The two passwords do not match')
    expect(validateConfirmPassword('abc123', 'abc123', zh)).toBeNull()
  })
  it('validates the whole form', () => {
    const ok = validateChangePassword({ oldPassword: 'old123', newPassword: 'new123', confirmPassword: 'new123' }, zh)
    expect(ok).toEqual({ oldPassword: null, newPassword: null, confirmPassword: null })
    expect(hasErrors(ok)).toBe(false)
    const bad = validateChangePassword({ oldPassword: '', newPassword: 'short', confirmPassword: 'x' }, zh)
    expect(bad).toEqual({ oldPassword: '请输入原密码', newPassword: '密码长度介于6到16位之间', confirmPassword: '两次密码输入不一致' })
    expect(hasErrors(bad)).toBe(true)
  })
  it('has the hint text', () => {
    expect(zh(passwordHintKey)).toBe('6到16位，区分大小写')
    expect(en(passwordHintKey)).toBe('6 to 16 characters, case-sensitive')
  })
})
