/** A zod issue of a request's schema as one sentence naming the field, in the caller's language. */
import type { z } from 'zod'
import { isMessageKey, message, type Lang, type MessageKey } from './messages.ts'

/** The parts of a request a schema reads (Fastify's validation contexts). */
export const requestParts = ['body', 'querystring', 'params', 'headers'] as const
export type RequestPart = (typeof requestParts)[number]

type Issue = z.core.$ZodIssue

/**
 * Whether the request leaves out the value at `path`. A path that goes on into text the schema
 * split (an id list `1,2,3` at `templateIds.1`) names a value that is there.
 */
function leftOut(root: unknown, path: readonly PropertyKey[]): boolean {
  let v = root
  for (const p of path) {
    if (v === undefined || v === null) return true
    if (typeof v !== 'object') return false
    v = (v as Record<PropertyKey, unknown>)[p]
  }
  return v === undefined
}

/** zod's type names as the words of the messages; a type a JSON request cannot hold has none. */
const typeWords: Record<string, MessageKey> = {
  int: 'field.type.int',
  bigint: 'field.type.int',
  number: 'field.type.number',
  string: 'field.type.string',
  boolean: 'field.type.boolean',
  array: 'field.type.array',
  tuple: 'field.type.array',
  set: 'field.type.array',
  object: 'field.type.object',
  record: 'field.type.object',
  map: 'field.type.object',
  date: 'field.type.date',
  null: 'field.type.null',
}

/** Allowed values are listed up to this many; a longer list would bury the sentence. */
const listedValues = 20

const isNumber = (origin: string) => origin === 'number' || origin === 'int' || origin === 'bigint'
const isList = (origin: string) => origin === 'array' || origin === 'set'
const atRoot = (i: Issue) => i.path.length === 0

class Speaker {
  constructor(
    readonly lang: Lang,
    readonly input: unknown,
    readonly part: RequestPart,
  ) {}

  say(key: MessageKey, params: readonly (string | number)[] = []): string {
    return message(this.lang, key, params)
  }

  /** The path as fieldLabel reads it; the whole part of the request when the path is empty. */
  field(path: readonly PropertyKey[]): string {
    return path.length > 0 ? path.map(String).join('.') : this.say(`field.request.${this.part}`)
  }

  list(items: readonly string[]): string {
    return items.join(this.say('field.separator'))
  }

  /** The value must have one of `types`: "expected an integer", "expected text or a list". */
  wrongType(path: readonly PropertyKey[], types: readonly string[]): string {
    const words = [...new Set(types.map((t) => typeWords[t]))]
    if (words.length === 0 || words.some((w) => w === undefined)) return this.say('field.invalid', [this.field(path)])
    const either = (words as MessageKey[]).map((w) => this.say(w)).reduce((a, b) => this.say('field.either', [a, b]))
    return this.say('field.type', [this.field(path), either])
  }

  oneOf(path: readonly PropertyKey[], values: readonly unknown[]): string {
    const shown = [...new Set(values.map((v) => (v === '' ? '""' : String(v))))]
    if (shown.length === 0 || shown.length > listedValues) return this.say('field.invalid', [this.field(path)])
    return shown.length === 1
      ? this.say('field.is', [this.field(path), shown[0] as string])
      : this.say('field.oneOf', [this.field(path), this.list(shown)])
  }

  describe(issue: Issue): string {
    const field = this.field(issue.path)
    switch (issue.code) {
      case 'invalid_type':
        if (leftOut(this.input, issue.path)) return this.say('field.required', [field])
        return this.wrongType(issue.path, [issue.expected])
      case 'too_big':
      case 'too_small':
        return this.bound(issue, field)
      case 'invalid_format':
        if (issue.format === 'email') return this.say('field.email', [field])
        if (issue.format === 'datetime') return this.say('field.dateTime', [field])
        return this.say('field.format', [field])
      case 'invalid_value':
        if (leftOut(this.input, issue.path)) return this.say('field.required', [field])
        return this.oneOf(issue.path, issue.values)
      case 'unrecognized_keys': {
        const keys = issue.keys.map((k) => (issue.path.length > 0 ? `${field}.${k}` : k))
        return this.say(keys.length === 1 ? 'field.unknown' : 'field.unknownMany', [this.list(keys)])
      }
      case 'invalid_union':
        return this.union(issue)
      case 'invalid_key':
        return this.say('field.badKey', [this.field(issue.path.slice(0, -1)), String(issue.path.at(-1))])
      case 'not_multiple_of':
        return this.say('field.multipleOf', [field, issue.divisor])
      case 'custom': {
        // A refinement of the contract may name its own message (invisibleKey, collectedAtKey).
        const key: unknown = issue.params?.key
        return this.say(typeof key === 'string' && isMessageKey(key) ? key : 'field.invalid', [field])
      }
      default:
        return this.say('field.invalid', [field])
    }
  }

  /** Lengths of text, counts of lists, numbers and dates, each past its bound. */
  bound(issue: z.core.$ZodIssueTooBig | z.core.$ZodIssueTooSmall, field: string): string {
    const big = issue.code === 'too_big'
    const limit = big ? issue.maximum : issue.minimum
    if (issue.origin === 'string') {
      if (issue.exact) return this.say('field.lengthIs', [field, String(limit)])
      if (!big && limit === 1) return this.say('field.required', [field])
      return this.say(big ? 'field.tooLong' : 'field.tooShort', [field, String(limit)])
    }
    if (isList(issue.origin)) {
      if (issue.exact) return this.say('field.countIs', [field, String(limit)])
      return this.say(big ? 'field.tooMany' : 'field.tooFew', [field, String(limit)])
    }
    if (isNumber(issue.origin)) {
      const key = issue.inclusive === false ? (big ? 'field.below' : 'field.above') : big ? 'field.tooBig' : 'field.tooSmall'
      return this.say(key, [field, String(limit)])
    }
    if (issue.origin === 'date') {
      return this.say(big ? 'field.notAfter' : 'field.notBefore', [field, new Date(Number(limit)).toISOString()])
    }
    return this.say('field.invalid', [field])
  }

  /**
   * A value no branch of a union took. A branch whose type the value has tells what is wrong
   * with it (text too long, a list too long); when none has, the sentence names every type, and
   * literals every allowed value.
   */
  union(issue: z.core.$ZodIssueInvalidUnion): string {
    if (leftOut(this.input, issue.path)) return this.say('field.required', [this.field(issue.path)])
    // A discriminated union reports the discriminator it did not know, with the ones it knows.
    if ('options' in issue && issue.options && issue.errors.length === 0) return this.oneOf(issue.path, issue.options)
    const branches = issue.errors.filter((b) => b.length > 0)
    const fitting = branches.filter((b) => !b.some((i) => atRoot(i) && i.code === 'invalid_type'))
    if (fitting.length === 0) {
      const expected = branches.flatMap((b) => b.flatMap((i) => (atRoot(i) && i.code === 'invalid_type' ? [i.expected] : [])))
      return this.wrongType(issue.path, expected)
    }
    const valueOnly = (b: Issue[]) => b.length === 1 && atRoot(b[0] as Issue) && b[0]?.code === 'invalid_value'
    const told = fitting.find((b) => !valueOnly(b))?.[0]
    if (told) return this.describe({ ...told, path: [...issue.path, ...told.path] })
    return this.oneOf(
      issue.path,
      fitting.flatMap((b) => b.flatMap((i) => (i.code === 'invalid_value' ? i.values : []))),
    )
  }
}

/** `input` is the part of the request the schema read (body, query string or path parameters). */
export function issueMessage(lang: Lang, issue: Issue, input: unknown, part: RequestPart): string {
  return new Speaker(lang, input, part).describe(issue)
}
