import { useCallback, useMemo, useRef, useState } from 'react'
import { InputGroup } from '@blueprintjs/core'
import { useSnapshot } from 'valtio'
import { careerDialog } from '../../../commands/organization.ts'
import type { Career, CareerSortKey } from '../../../contract/organization.ts'
import { useReloadKey } from '../../api/query.ts'
import { useT } from '../../i18n/useT.ts'
import { formatTime } from '../../lib/time.ts'
import { closeDialog, useDialog } from '../../state/dialogs.ts'
import { workspace } from '../../state/workspace.ts'
import { CommandButton } from '../../ui/CommandButton.tsx'
import { useCommandHost } from '../../ui/commandHost.tsx'
import { DenseTable, type DenseColumn, type Fetcher, type Sort } from '../../ui/DenseTable.tsx'
import { useSettled } from '../../ui/useSettled.ts'
import { listCareers } from './api/listCareers.ts'
import { CareerDialog } from './CareerDialog.tsx'

/** The name search settles for this long before the list asks the server. */
const typingDelay = 200

/**
 * Careers (job titles; SPEC §2 management/career, issue 8 item 1): a DenseTable sorted by name or
 * creation on the server, filtered by name prefix and keyset-paged; new, edit, delete.
 */
export default function CareerPage({ path }: { path: string }) {
  const t = useT()
  const host = useCommandHost()
  const version = useReloadKey('careers')
  const dialogRequest = useDialog(careerDialog)
  const { focused } = useSnapshot(workspace)
  const [q, setQ] = useState('')
  const settledQ = useSettled(q.trim(), typingDelay)
  const [sort, setSort] = useState<Sort<CareerSortKey>>({ key: 'name', order: 'asc' })
  // The rows read so far, so the edit dialog opens on what the list shows.
  const loaded = useRef(new Map<number, Career>())

  const fetchPage: Fetcher<Career> = useCallback(
    async (after, limit, signal) => {
      const page = await listCareers(
        { q: settledQ || undefined, sort: sort.key, order: sort.order, after: after ?? undefined, limit },
        { signal },
      )
      for (const c of page.items) loaded.current.set(c.id, c)
      return { rows: page.items, next: page.next, total: page.total }
    },
    [settledQ, sort],
  )

  const columns = useMemo<DenseColumn<Career>[]>(
    () => [
      {
        id: 'name',
        header: 'org.career.name',
        width: 200,
        sortKey: 'name',
        render: (r) => (
          <span data-testid="career-row" data-id={r.id}>
            {r.name}
          </span>
        ),
      },
      { id: 'remarks', header: 'org.career.remarks', width: 260, render: (r) => r.remarks },
      { id: 'userCount', header: 'org.career.userCount', width: 80, render: (r) => r.userCount },
      { id: 'createdAt', header: 'org.career.createdAt', width: 160, sortKey: 'created', render: (r) => formatTime(r.createdAt) ?? '' },
      {
        id: 'actions',
        header: 'org.career.actions',
        width: 100,
        fixed: true,
        interactive: true,
        render: (r) => (
          <span className="row-actions">
            <CommandButton id="admin.editCareer" args={{ id: r.id }} icon="edit" variant="minimal" size="small" iconOnly />
            <CommandButton
              id="admin.deleteCareer"
              args={{ id: r.id }}
              icon="trash"
              intent="danger"
              variant="minimal"
              size="small"
              iconOnly
            />
          </span>
        ),
      },
    ],
    [],
  )

  const close = useCallback(() => closeDialog(careerDialog), [])
  const request = dialogRequest && focused === path ? dialogRequest : null
  return (
    <div className="admin-page dense-page" data-testid="career-page">
      <DenseTable<Career>
        testId="career-table"
        columns={columns}
        identifier="name"
        fetchPage={fetchPage}
        queryKey={JSON.stringify({ q: settledQ, sort })}
        reloadKey={version}
        sort={sort}
        onSort={(s) => setSort(s as Sort<CareerSortKey>)}
        onOpen={(row) => void host.run('admin.editCareer', 'button', { id: row.id })}
        filters={
          <InputGroup
            leftIcon="search"
            placeholder={t('org.career.search')}
            aria-label={t('org.career.search')}
            value={q}
            onChange={(e) => setQ(e.currentTarget.value)}
            data-testid="career-search"
          />
        }
        actions={<CommandButton id="admin.newCareer" icon="add" intent="primary" />}
        emptyText={t('org.career.empty')}
      />
      {request && (
        <CareerDialog
          key={request.seq}
          career={request.args.id === null ? null : (loaded.current.get(request.args.id) ?? null)}
          onClose={close}
        />
      )}
    </div>
  )
}
