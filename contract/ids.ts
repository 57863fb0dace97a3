import { z } from 'zod'

/**
 * Ids and counts go into 32-bit integer columns (`serial`/`integer` on PostgreSQL): a larger
 * number must be refused as bad input, not reach the database and fail there with a 500.
 */
export const maxDbInt = 2_147_483_647

/** An id in a JSON body. */
export const idValue = z.number().int().min(1).max(maxDbInt)

const decimalDigits = /^[0-9]+$/

/**
 * A whole number in a path or query string (an id, a page size, a status or type code), where it
 * arrives as text: plain decimal digits only, then checked as `value`. A number reader would take
 * `1e1`, `0x0a`, ` 10`, `+10` and `10.0` for 10, so one record would answer to many spellings;
 * any of them is refused as not an integer. The client, which parses its calls' input with these
 * schemas too, passes a number, checked as `value`.
 */
export function integerParam<T extends z.ZodType<number, number>>(value: T) {
  return z
    .unknown()
    .transform((v, ctx) => {
      if (typeof v === 'number') return v
      if (typeof v === 'string' && decimalDigits.test(v)) return Number(v)
      ctx.addIssue({ code: 'invalid_type', expected: 'int', input: v })
      return z.NEVER
    })
    .pipe(value)
    .meta({ type: 'string', pattern: decimalDigits.source })
}

/** An id in a path or query string. */
export const idParam = integerParam(idValue)

/** The `:id` of a resource path. */
export const idParams = z.object({ id: idParam })
