/**
 * A typed API call: its method, its input and output schemas, and how a parsed input becomes
 * the HTTP request. The client parses the input before sending and the envelope's `data` with
 * `output` after, so a command never holds data the contract does not describe.
 */
import { z } from 'zod'

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE'
export type QueryValue = string | number | boolean | undefined

export interface HttpRequest {
  path: string
  query?: Readonly<Record<string, QueryValue>>
  body?: unknown
}

export interface Endpoint<I, O> {
  method: HttpMethod
  input: z.ZodType<I, unknown>
  output: z.ZodType<O, unknown>
  request(input: I): HttpRequest
}

export function endpoint<IS extends z.ZodType, OS extends z.ZodType>(e: {
  method: HttpMethod
  input: IS
  output: OS
  request(input: z.output<IS>): HttpRequest
}): Endpoint<z.output<IS>, z.output<OS>> {
  return e as unknown as Endpoint<z.output<IS>, z.output<OS>>
}

/** The output of an endpoint that answers no data. */
export const noData = z.unknown().transform(() => undefined)
