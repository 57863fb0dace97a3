import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import type { FastifyRouteSchemaDef } from 'fastify/types/schema.js'
import { serializerCompiler as library } from 'fastify-type-provider-zod'
import { serializerCompiler } from '../../server/plugins/serializer.ts'
import { envelope } from '../../contract/envelope.ts'
import { subjectPage } from '../../contract/subjectList.ts'

/** The response check by zod's parse (server/plugins/serializer.ts) answers what the library's encode does. */
const compile = (c: typeof library, schema: z.ZodType) =>
  c({ schema, method: 'GET', url: '/x', httpStatus: '200' } as unknown as FastifyRouteSchemaDef<z.ZodType>)

const row = {
  id: 7,
  subjectNo: 'C0-0000007',
  centerId: 1,
  centerName: '中心BJ',
  queueId: 2,
  queueName: '队列甲',
  status: 'enrolled',
  group: null,
  enrolledAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  values: { f1: '45' },
}

describe('response serializer', () => {
  it('writes what the library writes, leaving out keys the contract does not name', () => {
    const schema = envelope(subjectPage)
    const body = { code: 0, msg: '成功', data: { rows: [{ ...row, secret: 'x' }], next: null, total: 1, extra: 1 } }
    const ours = compile(serializerCompiler, schema)(body)
    expect(ours).toBe(compile(library, schema)(body))
    expect(ours).not.toContain('secret')
    expect(JSON.parse(ours).data.rows[0]).toEqual(row)
  })

  it('refuses a response that breaks its contract', () => {
    const check = compile(serializerCompiler, envelope(subjectPage))
    expect(() => check({ code: 0, msg: 'ok', data: { rows: [{ ...row, id: 'seven' }], next: null, total: 1 } })).toThrow(
      /Response doesn't match the schema/,
    )
  })
})
