import { useEffect, useState } from 'react'
import type { Lang } from '../i18n/index.ts'
import { recordLimit, type PaletteRecord, type RecordSource } from './paletteSources.ts'

/** Milliseconds of quiet typing before the server is asked. */
const searchDelay = 200

export type SearchStatus = 'idle' | 'loading' | 'done' | 'failed'

/**
 * Asks `source` for `search` once typing settles; a newer search aborts the older. At most
 * `recordLimit` records are kept. With `skipEmpty`, an empty search asks nothing (the main
 * palette lists commands until something is typed).
 */
export function useRecordSearch(
  source: RecordSource,
  search: string,
  lang: Lang,
  skipEmpty = false,
): { records: PaletteRecord[]; status: SearchStatus } {
  const [records, setRecords] = useState<PaletteRecord[]>([])
  const [status, setStatus] = useState<SearchStatus>(skipEmpty ? 'idle' : 'loading')
  const idle = skipEmpty && search.trim() === ''

  useEffect(() => {
    if (idle) {
      setRecords([])
      setStatus('idle')
      return
    }
    const controller = new AbortController()
    setStatus('loading')
    const timer = setTimeout(() => {
      source.search(search, lang, controller.signal).then(
        (found) => {
          if (controller.signal.aborted) return
          setRecords(found.slice(0, recordLimit))
          setStatus('done')
        },
        () => {
          if (!controller.signal.aborted) setStatus('failed')
        },
      )
    }, searchDelay)
    return () => {
      clearTimeout(timer)
      controller.abort()
    }
  }, [source, search, lang, idle])

  return { records, status }
}
