/**
 * i18n: one rosetta instance holding the zh and en dictionaries, the current language, and a
 * change event for whoever renders (src/i18n/useT.ts is the React side). No React, no DOM,
 * no storage here: the settings store persists the language (cookie) and calls setLang.
 *
 * zh is the default and the fallback, so it is always here; en is its own chunk, loaded before
 * the first render of an English session and in the background of a Chinese one (the palette
 * matches titles in both languages). Each dictionary is ~18-20 kB gzip: the first load carries one.
 *
 * Keys are dotted paths into the nested dictionaries ('route.multiList'). Placeholders are
 * `{0}`, `{1}` … with an array and `{name}` with a record (rosetta's own `{{name}}` works too).
 * A key missing in the current language falls back to zh, then to the key itself.
 */
import rosetta from 'rosetta'
import { substitute, type PlaceholderParams } from '../../contract/placeholder.ts'
import { zh, type Messages } from './zh.ts'

export type { Messages }
export type Lang = 'zh' | 'en'
export const langs: readonly Lang[] = ['zh', 'en']
export const defaultLang: Lang = 'zh'

/** Every key of the dictionaries, as a dotted path. */
export type I18nKey = Leaves<Messages>
type Leaves<T, P extends string = ''> = {
  [K in keyof T & string]: T[K] extends string ? `${P}${K}` : Leaves<T[K], `${P}${K}.`>
}[keyof T & string]
/** A key with completion for the known ones; any string is accepted (command titles are data). */
export type KeyLike = I18nKey | (string & {})

export const i18n = rosetta<Messages>({ zh })
i18n.locale(defaultLang)

const loading: Partial<Record<Lang, Promise<void>>> = {}
const load: Record<Exclude<Lang, 'zh'>, () => Promise<Messages>> = { en: () => import('./en.ts').then((m) => m.en) }

/** True once `lang`'s dictionary is here. */
export function isLoaded(lang: Lang): boolean {
  return i18n.table(lang) !== undefined
}

/** Fetches `lang`'s dictionary once; a failed fetch may be tried again. */
export function loadLang(lang: Lang): Promise<void> {
  if (lang === 'zh' || isLoaded(lang)) return Promise.resolve()
  loading[lang] ??= load[lang]().then(
    (messages) => i18n.set(lang, messages),
    (err: unknown) => {
      delete loading[lang]
      throw err
    },
  )
  return loading[lang]
}

/** Names listed as the language writes a list: 甲、乙 in Chinese, "a, b" in English. */
export function joinList(names: readonly string[], lang: Lang): string {
  return names.join(lang === 'zh' ? '、' : ', ')
}

export function isLang(value: unknown): value is Lang {
  return value === 'zh' || value === 'en'
}

function lookup(lang: Lang, key: string): string | undefined {
  let node: unknown = i18n.table(lang)
  for (const part of key.split('.')) {
    if (typeof node !== 'object' || node === null || !Object.prototype.hasOwnProperty.call(node, part)) return undefined
    node = (node as Record<string, unknown>)[part]
  }
  return typeof node === 'string' ? node : undefined
}

/** True when `key` names a text (not a group) in the given language's dictionary. */
export function hasKey(key: string, lang: Lang = defaultLang): boolean {
  return lookup(lang, key) !== undefined
}

/** The text of `key` in `lang`, whatever the current language (the palette matches both). */
export function translate(lang: Lang, key: KeyLike, params?: PlaceholderParams): string {
  const found = hasKey(key, lang) ? lang : hasKey(key, defaultLang) ? defaultLang : undefined
  if (found === undefined) return key
  // rosetta's own templating ({{name}}) gets a record; ours does {0} and {name}.
  const raw = i18n.t(key, (params ?? {}) as Record<string, unknown>, found)
  return substitute(raw, params)
}

/** The text of `key` in the current language. */
export function t(key: KeyLike, params?: PlaceholderParams): string {
  return translate(getLang(), key, params)
}

export function getLang(): Lang {
  const current = i18n.locale()
  return isLang(current) ? current : defaultLang
}

type Listener = (lang: Lang) => void
const listeners = new Set<Listener>()

/** The language last asked for: a dictionary that arrives late switches only if it still is. */
let wanted: Lang = defaultLang

/**
 * Changes the current language and tells the subscribers (only when it really changes), once its
 * dictionary is here: at once when it is, else after loading it (a language asked for meanwhile
 * wins). Resolves when the change is made; a dictionary that cannot be fetched leaves the language
 * as it was and rejects. Throws on anything but 'zh' or 'en', so a bad cookie is caught where it
 * is read.
 */
export function setLang(lang: Lang): Promise<void> {
  if (!isLang(lang)) throw new RangeError(`Unknown language: ${String(lang)}`)
  wanted = lang
  if (isLoaded(lang)) {
    apply(lang)
    return Promise.resolve()
  }
  return loadLang(lang).then(() => {
    if (wanted === lang) apply(lang)
  })
}

function apply(lang: Lang): void {
  if (lang === getLang()) return
  i18n.locale(lang)
  for (const listener of [...listeners]) listener(lang)
}

/** Calls `listener` after every language change; returns the unsubscribe function. */
export function subscribe(listener: Listener): () => void {
  listeners.add(listener)
  return () => {
    listeners.delete(listener)
  }
}

/** Same as translate: the text of `key` in `lang` (name used by the palette). */
export const translateIn = translate
