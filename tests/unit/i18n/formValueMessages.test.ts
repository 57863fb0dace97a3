import { describe, expect, it } from 'vitest'
import { formMessageKeys } from '../../../contract/formValues.ts'
import { dictionaries, type MessageKey } from '../../../server/i18n/messages.ts'
import { en } from '../../../src/i18n/en.ts'
import { zh } from '../../../src/i18n/zh.ts'

/**
 * The server refuses a saved value with the same rules as the form (contract/formValues.ts) and
 * must word the refusal exactly as the form does: every message key those rules return has the
 * client's wording in the server's dictionaries, in both languages.
 */
const ruleKeys = [
  'validatorMsg.pleaseInput',
  'validatorMsg.pleaseSelect',
  'validatorMsg.integer',
  'validatorMsg.number',
  'validatorMsg.pattern',
  ...Object.values(formMessageKeys),
] as const

function clientText(messages: object, key: string): unknown {
  return key
    .split('.')
    .reduce<unknown>((at, part) => (at !== null && typeof at === 'object' ? (at as Record<string, unknown>)[part] : undefined), messages)
}

describe('the shared value rules’ messages', () => {
  it.each(ruleKeys)('%s reads the same on the server and in the client', (key) => {
    expect(dictionaries.zh[key as MessageKey]).toBe(clientText(zh, key))
    expect(dictionaries.en[key as MessageKey]).toBe(clientText(en, key))
  })

  it('every key the rules can return is listed above', async () => {
    const source = (await import('node:fs')).readFileSync(new URL('../../../contract/formValues.ts', import.meta.url), 'utf8')
    const used = new Set([...source.matchAll(/'(validatorMsg\.[A-Za-z]+)'/g)].map((m) => m[1]))
    for (const k of used) expect(ruleKeys as readonly string[]).toContain(k)
  })
})
