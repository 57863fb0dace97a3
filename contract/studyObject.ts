import { z } from 'zod'
import { envelope } from './envelope.ts'

export const studyObjectPaths = {
  buttonAuthority: 'api/scientific/studyObject/studyObjectButtonAuthority',
} as const

/**
 * SPEC §7 studyObjectButtonAuthority: which research-object buttons the caller may use, from the
 * same role grants the server enforces (contract/permissions.ts `subject.*`, `dataLoad.*`).
 */
export const buttonAuthority = z.object({
  view: z.boolean(),
  add: z.boolean(),
  edit: z.boolean(),
  delete: z.boolean(),
  sign: z.boolean(),
  export: z.boolean(),
  unblind: z.boolean(),
  import: z.boolean(),
})
export type ButtonAuthority = z.infer<typeof buttonAuthority>
export const buttonAuthorityResponse = envelope(buttonAuthority)
