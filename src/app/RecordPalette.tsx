import { useEffect, useState } from 'react'
import { Command } from 'cmdk'
import { Spinner } from '@blueprintjs/core'
import { useLang, useT } from '../i18n/useT.ts'
import { recordLimit, type PaletteRecord, type RecordSource } from './paletteSources.ts'

/** Milliseconds of quiet typing before the server is asked. */
const searchDelay = 200

/**
 * The palette in record mode: the input searches `source` on the server (debounced; a newer
 * search aborts the older), at most `recordLimit` records are listed, and choosing one calls
 * `onOpen` (the palette knows whether Ctrl/⌘ was held).
 */
export function RecordPalette({ source, onOpen }: { source: RecordSource; onOpen: (record: PaletteRecord) => void }) {
  const t = useT()
  const lang = useLang()
  const [search, setSearch] = useState('')
  const [records, setRecords] = useState<PaletteRecord[]>([])
  const [status, setStatus] = useState<'idle' | 'loading' | 'done' | 'failed'>('loading')

  useEffect(() => {
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
  }, [source, search, lang])

  return (
    <>
      <Command.Input autoFocus value={search} onValueChange={setSearch} placeholder={t(source.placeholder)} data-testid="palette-input" />
      <Command.List data-testid="palette-list" data-status={status}>
        {status === 'loading' && records.length === 0 && (
          <Command.Loading>
            <div className="palette-loading">
              <Spinner size={16} /> {t('dictionary.palette.searching')}
            </div>
          </Command.Loading>
        )}
        {status === 'failed' && <div className="palette-empty">{t('dictionary.palette.failed')}</div>}
        {status === 'done' && records.length === 0 && <div className="palette-empty">{t('palette.empty')}</div>}
        {records.length > 0 && (
          <Command.Group heading={t(source.heading)}>
            {records.map((r) => (
              <Command.Item key={r.id} value={r.id} data-testid={`palette-record-${r.id}`} data-path={r.path} onSelect={() => onOpen(r)}>
                <span className="palette-title">{r.title}</span>
                {r.alt && <span className="palette-alt">{r.alt}</span>}
              </Command.Item>
            ))}
          </Command.Group>
        )}
      </Command.List>
      <div className="palette-hint">{t('dictionary.palette.openHint')}</div>
    </>
  )
}
