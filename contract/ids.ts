import { z } from 'zod'

/**
 * Ids and counts go into 32-bit integer columns (`serial`/`integer` on PostgreSQL): a larger
 * number must be refused as bad input, not reach the database and fail there with a 500.
 */
export const maxDbInt = 2_147_483_647

/** An id in a JSON body. */
export const idValue = z.number().int().min(1).max(maxDbInt)

/** An id in a path or query string, where it arrives as text. */
export const idParam = z.coerce.number().int().min(1).max(maxDbInt)

/** The `:id` of a resource path. */
export const idParams = z.object({ id: idParam })
