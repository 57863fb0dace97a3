import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { identifierValue } from '../../contract/identifierText.ts'
import { sampleFields } from '../../contract/samples.ts'
import { issueMessage, type RequestPart } from '../../server/i18n/issueMessage.ts'
import type { Lang } from '../../server/i18n/messages.ts'

/**
 * Every kind of zod issue a request can raise reads as a sentence in the caller's language:
 * Chinese type words in zh, English counts in en, the field by its label (fieldLabel).
 */
function said(lang: Lang, schema: z.ZodType, input: unknown, part: RequestPart = 'body'): string {
  const parsed = schema.safeParse(input)
  if (parsed.success) throw new Error('the input was expected to be refused')
  return parsed.error.issues.map((i) => issueMessage(lang, i, input, part)).join('; ')
}

const both = (schema: z.ZodType, input: unknown, part: RequestPart = 'body') => ({
  zh: said('zh', schema, input, part),
  en: said('en', schema, input, part),
})

describe('invalid_type', () => {
  it.each([
    ['an integer', z.number().int(), 1.5, '数量 的类型不正确，应为整数', 'quantity has the wrong type; expected an integer'],
    ['a number', z.number(), '3', '数量 的类型不正确，应为数字', 'quantity has the wrong type; expected a number'],
    ['text', z.string(), 3, '数量 的类型不正确，应为文本', 'quantity has the wrong type; expected text'],
    [
      'a boolean',
      z.boolean(),
      'yes',
      '数量 的类型不正确，应为布尔值（true 或 false）',
      'quantity has the wrong type; expected true or false',
    ],
    ['a list', z.array(z.string()), 'a', '数量 的类型不正确，应为列表', 'quantity has the wrong type; expected a list'],
    ['an object', z.object({}), [], '数量 的类型不正确，应为对象', 'quantity has the wrong type; expected an object'],
    ['a record', z.record(z.string(), z.string()), 1, '数量 的类型不正确，应为对象', 'quantity has the wrong type; expected an object'],
    ['a date', z.date(), 'x', '数量 的类型不正确，应为日期', 'quantity has the wrong type; expected a date'],
    ['null', z.null(), 0, '数量 的类型不正确，应为空值（null）', 'quantity has the wrong type; expected null'],
  ])('%s', (_, schema, value, zh, en) => {
    expect(both(z.object({ quantity: schema }), { quantity: value })).toEqual({ zh, en })
  })

  it('a field left out is asked for, not called the wrong type', () => {
    expect(both(z.object({ quantity: z.number() }), {})).toEqual({ zh: '请输入 数量', en: 'Please input quantity' })
  })

  it('the whole request of the wrong type is named by its part', () => {
    expect(both(z.object({}), [])).toEqual({
      zh: '请求体 的类型不正确，应为对象',
      en: 'request body has the wrong type; expected an object',
    })
    expect(both(z.object({}), 'x', 'querystring')).toEqual({
      zh: '查询参数 的类型不正确，应为对象',
      en: 'query string has the wrong type; expected an object',
    })
  })
})

describe('too_small and too_big', () => {
  it.each([
    ['text at most 1', z.string().max(1), 'ab', '备注 长度不能超过 1 个字符', 'remarks must be at most 1 character'],
    ['text at most 40', z.string().max(40), 'x'.repeat(41), '备注 长度不能超过 40 个字符', 'remarks must be at most 40 characters'],
    ['text at least 2', z.string().min(2), 'a', '备注 长度不能少于 2 个字符', 'remarks must be at least 2 characters'],
    ['text of exactly 1', z.string().length(1), 'ab', '备注 长度必须为 1 个字符', 'remarks must be exactly 1 character'],
    ['text of exactly 6', z.string().length(6), 'ab', '备注 长度必须为 6 个字符', 'remarks must be exactly 6 characters'],
    ['required text', z.string().min(1), '', '请输入 备注', 'Please input remarks'],
    ['a list of at least 1', z.array(z.number()).min(1), [], '备注 不能少于 1 项', 'remarks must have at least 1 item'],
    ['a list of at least 2', z.array(z.number()).min(2), [1], '备注 不能少于 2 项', 'remarks must have at least 2 items'],
    ['a list of at most 1', z.array(z.number()).max(1), [1, 2], '备注 不能超过 1 项', 'remarks must have at most 1 item'],
    ['a list of at most 30', z.array(z.number()).max(30), Array(31).fill(1), '备注 不能超过 30 项', 'remarks must have at most 30 items'],
    ['a list of exactly 2', z.array(z.number()).length(2), [1], '备注 必须正好 2 项', 'remarks must have exactly 2 items'],
    ['a set of at least 2', z.set(z.string()).min(2), new Set(['a']), '备注 不能少于 2 项', 'remarks must have at least 2 items'],
    ['a number at least 0', z.number().min(0), -1, '备注 不能小于 0', 'remarks must be at least 0'],
    ['a number at most 1000', z.number().max(1000), 1001, '备注 不能大于 1000', 'remarks must be at most 1000'],
    ['a positive number', z.number().int().positive(), 0, '备注 必须大于 0', 'remarks must be greater than 0'],
    ['a number below 10', z.number().lt(10), 10, '备注 必须小于 10', 'remarks must be less than 10'],
    [
      'a date not before',
      z.date().min(new Date('2026-01-01T00:00:00Z')),
      new Date('2025-12-31T00:00:00Z'),
      '备注 不能早于 2026-01-01T00:00:00.000Z',
      'remarks must not be before 2026-01-01T00:00:00.000Z',
    ],
    [
      'a date not after',
      z.date().max(new Date('2026-01-01T00:00:00Z')),
      new Date('2026-01-02T00:00:00Z'),
      '备注 不能晚于 2026-01-01T00:00:00.000Z',
      'remarks must not be after 2026-01-01T00:00:00.000Z',
    ],
  ])('%s', (_, schema, value, zh, en) => {
    expect(both(z.object({ remarks: schema }), { remarks: value })).toEqual({ zh, en })
  })
})

describe('invalid_format', () => {
  it.each([
    ['a pattern', z.string().regex(/^[a-z]+$/), 'A1', 'username 的格式不正确', 'username is not in the expected format'],
    ['an email address', z.email(), 'a@', 'username 不是有效的电子邮件地址', 'username is not a valid email address'],
    [
      'a date and time',
      z.iso.datetime({ offset: true }),
      '2026-01-01',
      'username 应为日期时间，如 2026-01-31T08:00:00+08:00',
      'username must be a date and time such as 2026-01-31T08:00:00+08:00',
    ],
  ])('%s', (_, schema, value, zh, en) => {
    expect(both(z.object({ username: schema }), { username: value })).toEqual({ zh, en })
  })
})

describe('invalid_value', () => {
  it('names the allowed values', () => {
    expect(both(z.object({ status: z.enum(['available', 'used', 'destroyed']) }), { status: 'lost' })).toEqual({
      zh: '状态 的值不合法，应为以下之一：available、used、destroyed',
      en: 'status must be one of: available, used, destroyed',
    })
  })

  it('names the one allowed value', () => {
    expect(both(z.object({ type: z.literal(3) }), { type: 4 })).toEqual({ zh: '类型 必须为 3', en: 'type must be 3' })
  })
})

describe('unrecognized_keys', () => {
  it('one field, several, and a nested one by its whole path', () => {
    expect(both(z.strictObject({}), { owner: 1 })).toEqual({ zh: '不允许的字段：owner', en: 'Field not allowed: owner' })
    expect(both(z.strictObject({}), { a: 1, b: 2 })).toEqual({ zh: '不允许的字段：a、b', en: 'Fields not allowed: a, b' })
    expect(both(z.object({ checklist: z.strictObject({}) }), { checklist: { x: 1 } })).toEqual({
      zh: '不允许的字段：checklist.x',
      en: 'Field not allowed: checklist.x',
    })
  })
})

describe('custom', () => {
  it('a refinement that names its own message says it', () => {
    expect(both(z.object({ subjectNo: identifierValue(50) }), { subjectNo: 'A\u200bB' })).toEqual({
      zh: '研究对象编号 含有不可见字符或控制字符（如换行、零宽空格），请删除后重试',
      en: 'subject number contains an invisible or control character (such as a line break or a zero-width space); remove it and try again',
    })
  })

  it('a collection time that is no real day says what it should be', () => {
    expect(both(sampleFields, { collectedAt: '2026-02-30' })).toEqual({
      zh: '采集时间 应为真实存在的日期，如 2026-01-31 或 2026-01-31 08:30',
      en: 'collection time must be a real date such as 2026-01-31 or 2026-01-31 08:30',
    })
  })

  it('any other refinement says the value is not valid', () => {
    expect(both(z.object({ events: z.string().refine(() => false) }), { events: 'x' })).toEqual({
      zh: '事件对照 的值不合法',
      en: 'event mapping is not valid',
    })
  })
})

describe('invalid_union', () => {
  const value = z.union([z.string().max(3), z.array(z.string()).max(1)])

  it('a value of no branch’s type names every type', () => {
    expect(both(z.object({ values: value }), { values: 5 })).toEqual({
      zh: '字段取值 的类型不正确，应为文本或列表',
      en: 'field values has the wrong type; expected text or a list',
    })
  })

  it('a value of one branch’s type is told what that branch wants', () => {
    expect(both(z.object({ values: value }), { values: ['a', 'b'] })).toEqual({
      zh: '字段取值 不能超过 1 项',
      en: 'field values must have at most 1 item',
    })
    expect(both(z.object({ platform: z.union([z.string().max(32), z.number().int()]) }), { platform: 'x'.repeat(33) })).toEqual({
      zh: 'platform 长度不能超过 32 个字符',
      en: 'platform must be at most 32 characters',
    })
  })

  it('literals name the allowed values together', () => {
    expect(both(z.object({ status: z.union([z.literal(0), z.literal(1)]) }), { status: 2 })).toEqual({
      zh: '状态 的值不合法，应为以下之一：0、1',
      en: 'status must be one of: 0, 1',
    })
  })

  it('a discriminated union names its discriminators', () => {
    const plan = z.discriminatedUnion('format', [z.object({ format: z.literal('xlsx') }), z.object({ format: z.literal('csv') })])
    expect(both(plan, { format: 'pdf' })).toEqual({
      zh: '格式 的值不合法，应为以下之一：xlsx、csv',
      en: 'format must be one of: xlsx, csv',
    })
  })
})

describe('the other kinds', () => {
  it('invalid_key: a key of a record', () => {
    expect(both(z.object({ values: z.record(z.string().regex(/^\d+$/), z.string()) }), { values: { abc: 'x' } })).toEqual({
      zh: '字段取值 中的键 abc 不合法',
      en: 'abc is not a valid key of field values',
    })
  })

  it('not_multiple_of', () => {
    expect(both(z.object({ quantity: z.number().multipleOf(5) }), { quantity: 3 })).toEqual({
      zh: '数量 必须是 5 的倍数',
      en: 'quantity must be a multiple of 5',
    })
  })
})
