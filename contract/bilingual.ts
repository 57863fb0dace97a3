export type Lang = 'zh' | 'en'

/** A name kept in both languages, as the reader's language shows it: the English one falls back to the Chinese. */
export function bilingual(zh: string, en: string, lang: Lang): string {
  return lang === 'en' && en.trim() !== '' ? en : zh
}
