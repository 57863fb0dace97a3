/** A zod issue of a request's schema as one sentence naming the field, in the caller's language. */
import type { z } from 'zod'
import { invisibleKey } from '../../contract/identifierText.ts'
import { message, type Lang } from './messages.ts'

/**
 * Whether the request leaves out the value at `path`. A path that goes on into text the schema
 * split (an id list `1,2,3` at `templateIds.1`) names a value that is there.
 */
function leftOut(root: unknown, path: readonly string[]): boolean {
  let v = root
  for (const p of path) {
    if (v === undefined || v === null) return true
    if (typeof v !== 'object') return false
    v = (v as Record<string, unknown>)[p]
  }
  return v === undefined
}

const isNumber = (origin: string) => origin === 'number' || origin === 'int' || origin === 'bigint'
const isList = (origin: string) => origin === 'array' || origin === 'set'

/** `input` is the part of the request the schema read (body, query string or path parameters). */
export function issueMessage(lang: Lang, issue: z.core.$ZodIssue, input: unknown): string {
  const path = issue.path.map(String)
  const field = path.join('.') || (lang === 'zh' ? '请求' : 'request')
  switch (issue.code) {
    case 'invalid_type':
      if (leftOut(input, path)) return message(lang, 'field.required', [field])
      return message(lang, 'field.type', [field, String(issue.expected)])
    case 'too_big':
      if (isList(issue.origin)) return message(lang, 'field.tooMany', [field, String(issue.maximum)])
      return message(lang, isNumber(issue.origin) ? 'field.tooBig' : 'field.tooLong', [field, String(issue.maximum)])
    case 'too_small':
      if (isNumber(issue.origin)) return message(lang, 'field.tooSmall', [field, String(issue.minimum)])
      if (isList(issue.origin)) return message(lang, 'field.tooFew', [field, String(issue.minimum)])
      return issue.minimum === 1 && issue.origin === 'string'
        ? message(lang, 'field.required', [field])
        : message(lang, 'field.tooShort', [field, String(issue.minimum)])
    case 'unrecognized_keys':
      return message(lang, 'field.unknown', [issue.keys.join(', ')])
    case 'custom':
      // A refinement of the contract that names its own message (contract/identifierText.ts).
      if ((issue.params as { key?: unknown } | undefined)?.key === invisibleKey) return message(lang, invisibleKey, [field])
      return message(lang, 'field.invalid', [field])
    default:
      return message(lang, 'field.invalid', [field])
  }
}
