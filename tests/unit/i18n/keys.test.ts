/**
 * The two dictionaries have the same keys, and every key the code names literally exists.
 * No script: the code is scanned with regular expressions over src/, commands/ and contract/.
 */
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { hasKey } from '../../../src/i18n/index.ts'
import { en } from '../../../src/i18n/en.ts'
import { zh } from '../../../src/i18n/zh.ts'
import { screens } from '../../../contract/screens.ts'
import { placeholdersOf } from '../../../contract/placeholder.ts'
import { changePasswordKeys, passwordHintKey, validatorKeys } from '../../../src/lib/validators.ts'

const dictionaries = { zh, en }
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..')
const scannedDirs = ['src', 'commands', 'contract']

/** Dotted paths of every leaf; a leaf that is not a string is reported as `path:<type>`. */
function leaves(node: unknown, prefix = ''): string[] {
  if (typeof node === 'string') return [prefix]
  if (typeof node !== 'object' || node === null || Array.isArray(node)) return [`${prefix}:${Array.isArray(node) ? 'array' : typeof node}`]
  return Object.entries(node).flatMap(([k, v]) => leaves(v, prefix ? `${prefix}.${k}` : k))
}

function difference(a: readonly string[], b: readonly string[]): string[] {
  const other = new Set(b)
  return a.filter((k) => !other.has(k)).sort()
}

const namespaces = Object.keys(zh)
const dotted = '[A-Za-z_$][\\w$]*(?:\\.[\\w$-]+)+'
const quoted = (body: string) => `(['"\`])(${body})\\1`
const dynamic = '`([A-Za-z_$][\\w$.-]*\\.)\\$\\{'

export interface Found {
  key: string
  /** A template literal: only its static prefix is known. */
  prefix?: boolean
}

/**
 * Literal keys in source text:
 *   t('a.b') / i18n.t('a.b') / translate(lang, 'a.b') / translateIn(lang, 'a.b')
 *   title: 'a.b' (any dotted title is a key: titles are i18n keys in this code base)
 *   key|label|message|placeholder|text|…Key: 'ns.b' (or JSX …Key="ns.b") where ns is a namespace
 *   of the dictionaries
 * and template literals like t(`command.size.${size}`) or planKey={`plan.${name}`} as a prefix
 * that some key must start with.
 */
export function extractKeys(source: string): Found[] {
  const found: Found[] = []
  const ns = `(?:${namespaces.join('|')})\\.[\\w$.-]+`
  const literal = [
    new RegExp(`\\bt\\(\\s*${quoted('[^\'"`$]+?')}`, 'g'),
    new RegExp(`\\btranslate(?:In)?\\(\\s*[^,()]+,\\s*${quoted('[^\'"`$]+?')}`, 'g'),
    new RegExp(`\\btitle\\s*:\\s*${quoted(dotted)}`, 'g'),
    new RegExp(`\\b(?:key|label|message|placeholder|text|\\w+Key)\\s*[:=]\\s*\\{?\\s*${quoted(ns)}`, 'g'),
  ]
  for (const re of literal) for (const m of source.matchAll(re)) found.push({ key: m[2] as string })
  const templates = [
    new RegExp(`\\bt\\(\\s*${dynamic}`, 'g'),
    new RegExp(`\\btranslate(?:In)?\\(\\s*[^,()]+,\\s*${dynamic}`, 'g'),
    new RegExp(`\\btitle\\s*:\\s*${dynamic}`, 'g'),
    new RegExp(`\\b\\w+Key\\s*[:=]\\s*\\{?\\s*${dynamic}`, 'g'),
  ]
  for (const re of templates) for (const m of source.matchAll(re)) found.push({ key: m[1] as string, prefix: true })
  return found
}

function sourceFiles(dir: string): string[] {
  if (!fs.existsSync(dir)) return []
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name)
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : sourceFiles(full)
    return /\.(ts|tsx|mts)$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [full] : []
  })
}

const allKeys = leaves(zh)
const known = (f: Found) => (f.prefix ? allKeys.some((k) => k.startsWith(f.key)) : hasKey(f.key, 'zh') && hasKey(f.key, 'en'))

describe('dictionaries', () => {
  it('zh and en have exactly the same keys', () => {
    const zhKeys = leaves(zh)
    const enKeys = leaves(en)
    expect({ missingInEn: difference(zhKeys, enKeys), missingInZh: difference(enKeys, zhKeys) }).toEqual({
      missingInEn: [],
      missingInZh: [],
    })
    expect(zhKeys.length).toBeGreaterThan(100)
  })
  it('the key comparison notices a difference', () => {
    const broken = { ...en, login: { ...en.login, extra: 'x' } } as unknown
    expect(difference(leaves(broken), leaves(zh))).toEqual(['login.extra'])
    const { mismatch: _dropped, ...rest } = zh.login
    expect(difference(leaves(zh), leaves({ ...zh, login: rest }))).toEqual(['login.mismatch'])
  })
  it('every text is a non-empty string in both languages', () => {
    for (const lang of ['zh', 'en'] as const) {
      const bad = leaves(dictionaries[lang]).filter((k) => k.includes(':') || !hasKey(k, lang) || lookupText(lang, k).trim() === '')
      expect(bad, lang).toEqual([])
    }
  })
  it('zh and en texts use the same placeholders', () => {
    const differing = allKeys.filter((k) => {
      const a = placeholdersOf(lookupText('zh', k)).sort()
      const b = placeholdersOf(lookupText('en', k)).sort()
      return a.join() !== b.join()
    })
    expect(differing).toEqual([])
  })
  it('give every screen of contract/screens.ts a title and, but for the dashboard, a plan', () => {
    const lacking = screens.flatMap((s) => {
      const keys = [s.title, ...(s.name === 'dashboard' ? [] : [`plan.${s.name}`])]
      return keys.filter((k) => !hasKey(k, 'zh') || !hasKey(k, 'en'))
    })
    expect(lacking).toEqual([])
  })
  it('hold every key the validators of src/lib name', () => {
    const used = [...Object.values(validatorKeys), ...Object.values(changePasswordKeys), passwordHintKey]
    expect(used.filter((k) => !hasKey(k, 'zh') || !hasKey(k, 'en'))).toEqual([])
  })
})

function lookupText(lang: 'zh' | 'en', key: string): string {
  let node: unknown = dictionaries[lang]
  for (const part of key.split('.')) node = (node as Record<string, unknown>)[part]
  return node as string
}

describe('keys used in code', () => {
  it('the scanner finds literal and template keys', () => {
    const sample = `
      const a = t('route.multiList')
      i18n.t("message.unknownError", { x: 1 })
      translateIn('en', 'nope.missing')
      defineCommand({ id: 'x.y', title: 'command.notThere', section: 'view' })
      const r = { title: 'Plain text' , key: 'row-1', label: 'navbar.size' }
      t(\`command.size.\${size}\`)
      split('a.b'); format('x.y')
      <Planned planKey={\`plan.\${screen.name}\`} hintKey="plan.heading" id="palette.open" />
    `
    expect(extractKeys(sample)).toEqual([
      { key: 'route.multiList' },
      { key: 'message.unknownError' },
      { key: 'nope.missing' },
      { key: 'command.notThere' },
      { key: 'navbar.size' },
      { key: 'plan.heading' },
      { key: 'command.size.', prefix: true },
      { key: 'plan.', prefix: true },
    ])
    expect(
      extractKeys(sample)
        .filter((f) => !known(f))
        .map((f) => f.key),
    ).toEqual(['nope.missing', 'command.notThere'])
  })

  it('are all in both dictionaries', () => {
    const files = scannedDirs.flatMap((d) => sourceFiles(path.join(root, d)))
    expect(files.length).toBeGreaterThan(0)
    const missing: string[] = []
    let count = 0
    for (const file of files) {
      for (const f of extractKeys(fs.readFileSync(file, 'utf8'))) {
        count++
        if (!known(f)) missing.push(`${path.relative(root, file)}: ${f.key}${f.prefix ? '…' : ''}`)
      }
    }
    expect(count).toBeGreaterThan(0)
    expect(missing).toEqual([])
  })
})
