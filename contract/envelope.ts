import { z } from 'zod'

/** Every body the API answers: code 0 is success (DESIGN §3). */
export const failure = z.object({
  code: z.number().int(),
  msg: z.string(),
})

export function envelope<T extends z.ZodType>(data: T) {
  return z.object({
    code: z.number().int(),
    msg: z.string(),
    data: data.optional(),
    boolResult: z.boolean().optional(),
  })
}

export const emptyEnvelope = z.object({
  code: z.number().int(),
  msg: z.string(),
  boolResult: z.boolean().optional(),
})

export type Envelope<T> = { code: number; msg: string; data?: T; boolResult?: boolean }

/** A success body; the server's routes answer through this alone (server/plugins/envelope.ts). */
export function success<T>(msg: string, data?: T, boolResult?: boolean): Envelope<T> {
  return { code: 0, msg, ...(data === undefined ? {} : { data }), ...(boolResult === undefined ? {} : { boolResult }) }
}
