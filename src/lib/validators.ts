/**
 * Field validators of SPEC §5 and the change-password rules, for forms in either language.
 *
 * A validator is `(value, translate) => message | null`. It never holds text itself: it names a
 * message key (and parameters) and asks the injected `translate` (normally `t` of src/i18n) to
 * word it, so the same rule serves zh and en and re-renders in the new language after a switch.
 * Every validator except `required` passes on an empty value (undefined, null, '' or []), so a
 * rule list reads `[required(…), positiveNumber()]`.
 */
import { passwordMaxLength, passwordMinLength, passwordProblem, type PasswordProblem } from '../../contract/password.ts'
import { mobilePhonePattern } from '../../contract/phone.ts'
import { isHttpUrl } from './link.ts'
import type { PlaceholderParams } from '../../contract/placeholder.ts'

export type Translate = (key: string, params?: PlaceholderParams) => string

/** A message by key; a parameter may itself be a message ref, translated at the same time. */
export interface MessageRef {
  key: string
  params?: readonly MessageParam[] | Readonly<Record<string, MessageParam>>
}
export type MessageParam = string | number | MessageRef

export type Validator<V = unknown> = (value: V, translate: Translate) => string | null

/** Message keys the validators use by default (all present in src/i18n). */
export const validatorKeys = {
  positiveNumber: 'validatorMsg.positiveNumber',
  positiveInteger: 'validatorMsg.positiveInteger',
  length: 'validatorMsg.length',
  phone: 'validatorMsg.phone',
  required: 'validatorMsg.required',
  link: 'validatorMsg.link',
} as const

function isRef(param: MessageParam): param is MessageRef {
  return typeof param === 'object' && param !== null
}

/** Words a message ref, translating ref-valued parameters first. */
export function renderMessage(message: MessageRef | string, translate: Translate): string {
  if (typeof message === 'string') return translate(message)
  const { key, params } = message
  if (params === undefined) return translate(key)
  const word = (p: MessageParam) => (isRef(p) ? renderMessage(p, translate) : p)
  if (Array.isArray(params)) return translate(key, (params as readonly MessageParam[]).map(word))
  const named: Record<string, string | number> = {}
  for (const [name, p] of Object.entries(params as Record<string, MessageParam>)) named[name] = word(p)
  return translate(key, named)
}

/** Empty for the optional validators: undefined, null, '' and []. */
export function isEmptyValue(value: unknown): boolean {
  return value === undefined || value === null || value === '' || (Array.isArray(value) && value.length === 0)
}

/** Empty for `required`: also a string of only white space. */
export function isBlank(value: unknown): boolean {
  return isEmptyValue(value) || (typeof value === 'string' && value.trim() === '')
}

function text(value: unknown): string {
  return typeof value === 'string' ? value : String(value)
}

/** Digits with an optional decimal part: '0', '12', '3.50'; not '-1', '.5', '1.', '1e3'. */
export function isPositiveNumber(value: string): boolean {
  return /^\d+(\.\d+)?$/.test(value)
}

/** Zero, or digits without a leading zero: '0', '7', '120'; not '01', '1.0', '-3'. */
export function isPositiveInteger(value: string): boolean {
  return /^(0|[1-9]\d*)$/.test(value)
}

/** SPEC §5 length: each character (code point) below code 299 counts 1, any other 2. */
export function weightedLength(value: string): number {
  let n = 0
  for (const ch of value) n += (ch.codePointAt(0) as number) < 299 ? 1 : 2
  return n
}

export { mobilePhonePattern }

/** An 11-digit Chinese mobile number starting with 1 and a known second/third digit pair. */
export function isMobilePhone(value: string): boolean {
  return mobilePhonePattern.test(value)
}

function optional(test: (value: string) => boolean, message: MessageRef | string): Validator {
  return (value, translate) => (isEmptyValue(value) || test(text(value)) ? null : renderMessage(message, translate))
}

/** Digits with an optional decimal part; message 'validatorMsg.positiveNumber' unless given. */
export function positiveNumber(message: MessageRef | string = validatorKeys.positiveNumber): Validator {
  return optional(isPositiveNumber, message)
}

/** Zero or a positive integer without leading zero; message 'validatorMsg.positiveInteger' unless given. */
export function positiveInteger(message: MessageRef | string = validatorKeys.positiveInteger): Validator {
  return optional(isPositiveInteger, message)
}

/**
 * Weighted length (see weightedLength) between min and max inclusive; the message template gets
 * both bounds ({0} and {1}); 'validatorMsg.length' unless given.
 */
export function lengthBetween(min: number, max: number, message?: MessageRef | string): Validator {
  if (!(min <= max)) throw new RangeError(`lengthBetween: min ${min} is above max ${max}`)
  const msg = message ?? { key: validatorKeys.length, params: [min, max] }
  return optional((value) => {
    const n = weightedLength(value)
    return n >= min && n <= max
  }, msg)
}

/** SPEC §5 mobile phone; message under 'validatorMsg.phone' unless given. */
export function mobilePhone(message: MessageRef | string = validatorKeys.phone): Validator {
  return optional(isMobilePhone, message)
}

/** A web address starting with http:// or https://; message 'validatorMsg.link' unless given. */
export function httpLink(message: MessageRef | string = validatorKeys.link): Validator {
  return optional(isHttpUrl, message)
}

/**
 * Fails for undefined, null, an empty array and a blank string, with the rule's own message,
 * e.g. required({ key: 'validatorMsg.pleaseInput', params: [{ key: 'login.username' }] }).
 */
export function required(message: MessageRef | string = validatorKeys.required): Validator {
  return (value, translate) => (isBlank(value) ? renderMessage(message, translate) : null)
}

/** Runs the validators in order and returns the first message, or null when all pass. */
export function validate<V>(value: V, validators: readonly Validator<V>[], translate: Translate): string | null {
  for (const check of validators) {
    const message = check(value, translate)
    if (message !== null) return message
  }
  return null
}

// ---- Change password (SPEC §5), on top of contract/password.ts ----------------------------

export { passwordMinLength, passwordMaxLength }

/** Hint under the new password field: 6 to 16 characters, case-sensitive. */
export const passwordHintKey = 'changePwd.hint'

export const changePasswordKeys = {
  oldRequired: 'changePwd.oldRequired',
  newRequired: 'changePwd.newRequired',
  length: 'changePwd.length',
  charset: 'changePwd.charset',
  needsDigit: 'changePwd.needsDigit',
  needsLetter: 'changePwd.needsLetter',
  confirmRequired: 'changePwd.confirmRequired',
  tooLong: 'changePwd.tooLong',
  sameAsOld: 'changePwd.sameAsOld',
  mismatch: 'changePwd.mismatch',
} as const

/** The message for each problem contract/password.ts can report. */
export function passwordProblemMessage(problem: PasswordProblem): MessageRef {
  switch (problem) {
    case 'required':
      return { key: changePasswordKeys.newRequired }
    case 'length':
      return { key: changePasswordKeys.length }
    case 'charset':
      return { key: changePasswordKeys.charset }
    case 'needsDigit':
      return { key: changePasswordKeys.needsDigit }
    case 'needsLetter':
      return { key: changePasswordKeys.needsLetter }
    case 'tooLong':
      return { key: changePasswordKeys.tooLong, params: [passwordMaxLength] }
    case 'sameAsOld':
      return { key: changePasswordKeys.sameAsOld }
  }
}

export interface ChangePasswordForm {
  oldPassword: string
  newPassword: string
  confirmPassword: string
}

export type ChangePasswordErrors = { [K in keyof ChangePasswordForm]: string | null }

/** Old password: required ('请输入原密码'). */
export function validateOldPassword(value: string, translate: Translate): string | null {
  return value.length === 0 ? translate(changePasswordKeys.oldRequired) : null
}

/**
 * New password: required ('请设置新密码'), at least 6 ('密码长度介于6到16位之间'), letters and
 * digits with at least one of each ('密码只能包含数字和字母'), different from the old one
 * ('新密码不能与旧密码相同'); the rules themselves are contract/password.ts's.
 */
export function validateNewPassword(value: string, oldPassword: string, translate: Translate): string | null {
  const problem = passwordProblem(value, oldPassword === '' ? undefined : oldPassword)
  return problem === null ? null : renderMessage(passwordProblemMessage(problem), translate)
}

/** Confirmation: required (SPEC), then equal to the new password ('两次密码输入不一致'). */
export function validateConfirmPassword(value: string, newPassword: string, translate: Translate): string | null {
  if (value === '') return translate(changePasswordKeys.confirmRequired)
  return value !== newPassword ? translate(changePasswordKeys.mismatch) : null
}

/** All three fields at once; the form may be sent when every entry is null. */
export function validateChangePassword(form: ChangePasswordForm, translate: Translate): ChangePasswordErrors {
  return {
    oldPassword: validateOldPassword(form.oldPassword, translate),
    newPassword: validateNewPassword(form.newPassword, form.oldPassword, translate),
    confirmPassword: validateConfirmPassword(form.confirmPassword, form.newPassword, translate),
  }
}

export function hasErrors(errors: Readonly<Record<string, string | null>>): boolean {
  return Object.values(errors).some((message) => message !== null)
}
