import { useEffect, useState } from 'react'
import { Command } from 'cmdk'
import { Spinner } from '@blueprintjs/core'
import { useLang, useT } from '../i18n/useT.ts'
import type { PaletteRecord, RecordSource } from './paletteSources.ts'
import { useRecordSearch } from './useRecordSearch.ts'

/** The found records as one palette group; choosing one calls `onOpen`. */
export function RecordGroup({
  heading,
  records,
  onOpen,
}: {
  heading: string
  records: readonly PaletteRecord[]
  onOpen: (record: PaletteRecord) => void
}) {
  if (records.length === 0) return null
  return (
    <Command.Group heading={heading} data-testid="palette-records">
      {records.map((r) => (
        <Command.Item key={r.id} value={r.id} data-testid={`palette-record-${r.id}`} data-path={r.path} onSelect={() => onOpen(r)}>
          <span className="palette-title">{r.title}</span>
          {r.alt && <span className="palette-alt">{r.alt}</span>}
        </Command.Item>
      ))}
    </Command.Group>
  )
}

/**
 * The palette in record mode: the input searches `source` on the server, and the first record
 * found is selected, so Enter opens it; choosing one calls `onOpen` (the palette knows whether
 * Ctrl/⌘ was held).
 */
export function RecordPalette({
  source,
  onOpen,
  select,
}: {
  source: RecordSource
  onOpen: (record: PaletteRecord) => void
  select: (value: string) => void
}) {
  const t = useT()
  const lang = useLang()
  const [search, setSearch] = useState('')
  const { records, status } = useRecordSearch(source, search, lang)
  const first = records[0]?.id

  useEffect(() => {
    if (first !== undefined) select(first)
  }, [records])

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
        <RecordGroup heading={t(source.heading)} records={records} onOpen={onOpen} />
      </Command.List>
      <div className="palette-hint">{t(source.hint ?? 'dictionary.palette.openHint')}</div>
    </>
  )
}
