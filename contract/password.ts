/** Password rules of SPEC §5, shared by the change-password dialog and the server. */
export const passwordMinLength = 6
/** Not a SPEC rule (16 is only a hint there): a guard so nobody hashes megabytes. */
export const passwordMaxLength = 128

export type PasswordProblem = 'required' | 'length' | 'charset' | 'needsDigit' | 'needsLetter' | 'tooLong' | 'sameAsOld'

/** The first rule the new password breaks, or null when it is acceptable. */
export function passwordProblem(password: string, oldPassword?: string): PasswordProblem | null {
  if (password.length === 0) return 'required'
  if (password.length > passwordMaxLength) return 'tooLong'
  if (password.length < passwordMinLength) return 'length'
  if (!/^[A-Za-z0-9]+$/.test(password)) return 'charset'
  // Name the missing kind: 'abcdefgh' is all letters and digits, it only lacks a digit.
  if (!/[0-9]/.test(password)) return 'needsDigit'
  if (!/[A-Za-z]/.test(password)) return 'needsLetter'
  if (oldPassword !== undefined && password === oldPassword) return 'sameAsOld'
  return null
}
