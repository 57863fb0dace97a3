import { useCallback, useMemo } from 'react'
import { Tag } from '@blueprintjs/core'
import type { DownloadRecord, UploadOutcome, UploadRecord } from '../../../contract/dataLoader.ts'
import { useReloadKey } from '../../api/query.ts'
import { useLang, useT } from '../../i18n/useT.ts'
import { formatTime } from '../../lib/time.ts'
import { CommandButton } from '../../ui/CommandButton.tsx'
import { DenseTable, type DenseColumn, type Fetcher } from '../../ui/DenseTable.tsx'
import { getDownloadRecords } from './api/getDownloadRecords.ts'
import { getUploadRecords } from './api/getUploadRecords.ts'

const outcomeIntent: Record<UploadOutcome, 'success' | 'danger' | 'warning'> = { loaded: 'success', refused: 'danger', failed: 'warning' }

/** 1536 → "1.5 KB". */
function bytes(n: number): string {
  if (n < 1024) return `${n} B`
  const units = ['KB', 'MB', 'GB']
  let v = n / 1024
  let i = 0
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024
    i++
  }
  return `${v.toFixed(1)} ${units[i]}`
}

/** A keyset fetcher for a records list: pages by cursor, the total counted by the server. */
function useRecordsFetcher<R>(
  read: (after: string | undefined, limit: number, signal: AbortSignal) => Promise<{ rows: R[]; next: string | null; total: number }>,
) {
  return useCallback<Fetcher<R>>(
    async (after, limit, signal) => {
      const page = await read(after ?? undefined, Math.min(limit, 100), signal)
      return { rows: page.rows, next: page.next, total: page.total }
    },
    [read],
  )
}

function useCommon<R extends UploadRecord | DownloadRecord>() {
  const t = useT()
  const lang = useLang()
  return useMemo(
    () => ({
      at: { id: 'at', header: 'dataLoad.records.at', width: 150, fixed: true, render: (r: R) => formatTime(r.at, undefined, lang) ?? r.at },
      user: { id: 'user', header: 'dataLoad.records.user', width: 90, render: (r: R) => r.userName },
      file: { id: 'file', header: 'dataLoad.records.file', width: 160, render: (r: R) => <span title={r.fileName}>{r.fileName}</span> },
      size: { id: 'size', header: 'dataLoad.records.size', width: 76, fixed: true, render: (r: R) => bytes(r.size) },
      rows: { id: 'rows', header: 'dataLoad.records.rows', width: 70, fixed: true, render: (r: R) => r.rows.toLocaleString() },
      duration: {
        id: 'duration',
        header: 'dataLoad.records.duration',
        width: 76,
        fixed: true,
        render: (r: R) =>
          r.durationMs < 1000
            ? t('dataLoad.records.ms', [r.durationMs])
            : t('dataLoad.records.seconds', [(r.durationMs / 1000).toFixed(1)]),
      },
      hash: {
        id: 'hash',
        header: 'dataLoad.records.hash',
        // Twelve hex digits, the whole hash on hover.
        width: 104,
        fixed: true,
        render: (r: R) => <span title={r.sha256}>{r.sha256.slice(0, 12)}</span>,
      },
    }),
    [t, lang],
  )
}

const noSort = { key: 'at', order: 'desc' } as const

/** Who uploaded what, when, and how it ended; the original file and the error report while kept. */
export function UploadRecords({ studyId, onSelect }: { studyId: number; onSelect: (row: UploadRecord | null) => void }) {
  const t = useT()
  const reloadKey = useReloadKey('dataLoadRecords')
  const c = useCommon<UploadRecord>()
  const read = useCallback(
    (after: string | undefined, limit: number, signal: AbortSignal) => getUploadRecords(studyId, after, limit, { signal }),
    [studyId],
  )
  const fetchPage = useRecordsFetcher(read)
  const columns: DenseColumn<UploadRecord>[] = useMemo(
    () => [
      c.at,
      c.user,
      c.file,
      { id: 'forms', header: 'dataLoad.records.forms', width: 140, render: (r) => <span title={r.forms}>{r.forms}</span> },
      {
        id: 'outcome',
        header: 'dataLoad.records.outcome',
        // Its tag keeps the whole word.
        width: 84,
        fixed: true,
        render: (r) => (
          <Tag minimal intent={outcomeIntent[r.outcome]}>
            {t(`dataLoad.records.outcomes.${r.outcome}`)}
          </Tag>
        ),
      },
      c.rows,
      { id: 'errors', header: 'dataLoad.records.errors', width: 64, fixed: true, render: (r) => r.errorsTotal.toLocaleString() },
      c.size,
      c.duration,
      c.hash,
      { id: 'message', header: 'dataLoad.records.message', width: 160, render: (r) => <span title={r.message}>{r.message}</span> },
      {
        id: 'actions',
        header: 'dataLoad.records.actions',
        width: 80,
        fixed: true,
        interactive: true,
        render: (r) =>
          r.available && (
            <>
              <CommandButton
                id="dataLoad.fetchUpload"
                icon="document"
                variant="minimal"
                size="small"
                iconOnly
                args={{ studyId, id: r.id }}
              />
              {r.hasReport && (
                <CommandButton
                  id="dataLoad.fetchReport"
                  icon="th-list"
                  variant="minimal"
                  size="small"
                  iconOnly
                  args={{ studyId, id: r.id }}
                />
              )}
            </>
          ),
      },
    ],
    [c, t, studyId],
  )
  return (
    <div className="data-loading-records" data-testid="data-loading-uploads">
      <DenseTable
        columns={columns}
        identifier="file"
        fetchPage={fetchPage}
        queryKey={String(studyId)}
        reloadKey={reloadKey}
        sort={noSort}
        onSort={() => undefined}
        onSelect={onSelect}
        emptyText={t('dataLoad.records.emptyUploads')}
        testId="upload-records"
      />
    </div>
  )
}

/** Who downloaded what, when, in which format and scope; the file again while kept. */
export function DownloadRecords({ studyId, onSelect }: { studyId: number; onSelect: (row: DownloadRecord | null) => void }) {
  const t = useT()
  const reloadKey = useReloadKey('dataLoadRecords')
  const c = useCommon<DownloadRecord>()
  const read = useCallback(
    (after: string | undefined, limit: number, signal: AbortSignal) => getDownloadRecords(studyId, after, limit, { signal }),
    [studyId],
  )
  const fetchPage = useRecordsFetcher(read)
  const columns: DenseColumn<DownloadRecord>[] = useMemo(
    () => [
      c.at,
      c.user,
      c.file,
      { id: 'format', header: 'dataLoad.records.format', width: 64, fixed: true, render: (r) => r.format.toUpperCase() },
      { id: 'scope', header: 'dataLoad.records.scope', width: 240, render: (r) => <span title={r.scope}>{r.scope}</span> },
      c.rows,
      c.size,
      c.duration,
      c.hash,
      {
        id: 'actions',
        header: 'dataLoad.records.actions',
        width: 50,
        fixed: true,
        interactive: true,
        render: (r) =>
          r.available && (
            <CommandButton id="dataLoad.redownload" icon="download" variant="minimal" size="small" iconOnly args={{ studyId, id: r.id }} />
          ),
      },
    ],
    [c, studyId],
  )
  return (
    <div className="data-loading-records" data-testid="data-loading-downloads">
      <DenseTable
        columns={columns}
        identifier="file"
        fetchPage={fetchPage}
        queryKey={String(studyId)}
        reloadKey={reloadKey}
        sort={noSort}
        onSort={() => undefined}
        onSelect={onSelect}
        emptyText={t('dataLoad.records.emptyDownloads')}
        testId="download-records"
      />
    </div>
  )
}
