/** React side of src/i18n: re-renders on a language change (useSyncExternalStore). */
import { useCallback, useSyncExternalStore } from 'react'
import type { PlaceholderParams } from '../../contract/placeholder.ts'
import { getLang, subscribe, translate, type KeyLike, type Lang } from './index.ts'

/** The current language; the component re-renders when it changes. */
export function useLang(): Lang {
  return useSyncExternalStore(subscribe, getLang, getLang)
}

/** A `t` bound to the current language, stable until the language changes. */
export function useT(): (key: KeyLike, params?: PlaceholderParams) => string {
  const lang = useLang()
  return useCallback((key: KeyLike, params?: PlaceholderParams) => translate(lang, key, params), [lang])
}
