import { $ZodType, safeParse } from 'zod/v4/core'
import { ResponseSerializationError, serializerCompiler as encodingCompiler } from 'fastify-type-provider-zod'

/**
 * Every response is still checked against its zod schema and stripped of keys the contract does
 * not name, as fastify-type-provider-zod does, but by zod's parse rather than its encode: the
 * same result for schemas without codecs (ours have none; encode refuses a one-way transform, so
 * none can be in a response), and zod compiles parse for object shapes, not encode: a 50-row
 * subject page is checked in ~40 µs instead of ~120 µs. Any other schema form goes to the library.
 */
export const serializerCompiler: typeof encodingCompiler = (route) => {
  const { schema, method, url } = route
  if (!(schema instanceof $ZodType)) return encodingCompiler(route)
  return (data) => {
    const result = safeParse(schema, data)
    if (!result.success) throw new ResponseSerializationError(method, url, { cause: result.error })
    return JSON.stringify(result.data)
  }
}
