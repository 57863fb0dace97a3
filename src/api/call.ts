import { z } from 'zod'
import type { Endpoint } from '../../contract/endpoint.ts'
import { inputRefusal, request, type Body, type RequestOptions } from './client.ts'

/**
 * One typed call (contract/endpoint.ts): the input is parsed before anything is sent, and the
 * answer's `data` with the endpoint's output schema (a mismatch is an invalid response).
 */
/** What a caller may add to a typed call: the endpoint's schema is the only one. */
export type CallOptions<O> = Omit<RequestOptions<O>, 'schema'>

export async function call<I, O>(endpoint: Endpoint<I, O>, input: I, options?: CallOptions<O>): Promise<O> {
  const parsed = endpoint.input.safeParse(input)
  if (!parsed.success) {
    const field = parsed.error.issues[0]?.path.join('.') ?? ''
    throw inputRefusal({ method: endpoint.method, field, cause: parsed.error, toast: options?.toast })
  }
  const req = endpoint.request(parsed.data)
  // An answer may carry no data at all (a delete): the output schema decides whether that is right.
  const schema = z.object({
    code: z.number(),
    msg: z.string(),
    data: z.unknown().optional().pipe(endpoint.output),
    boolResult: z.boolean().optional(),
  })
  const res = await request<O>(endpoint.method, req.path, {
    ...options,
    query: req.query,
    body: req.body as Body | undefined,
    schema,
  })
  return res.data as O
}
