import { useCallback, useMemo, useState } from 'react'
import { Tag } from '@blueprintjs/core'
import { useSnapshot } from 'valtio'
import type { RoleSummary } from '../../../contract/roles.ts'
import { roleEditor } from '../../../commands/roles.ts'
import { useReloadKey } from '../../api/query.ts'
import { useLang, useT } from '../../i18n/useT.ts'
import { closeDialog, useDialog } from '../../state/dialogs.ts'
import { workspace } from '../../state/workspace.ts'
import { CommandButton } from '../../ui/CommandButton.tsx'
import { useCommandHost } from '../../ui/commandHost.tsx'
import { DenseTable, type DenseColumn, type Fetcher, type Sort } from '../../ui/DenseTable.tsx'
import { listRoles } from './api/listRoles.ts'
import { RoleEditorDialog } from './RoleEditorDialog.tsx'
import { bilingual } from '../../../contract/bilingual.ts'
import { usePublish } from '../../state/focus.ts'

/**
 * System roles (SPEC §2 management/role, issue 8 item 2): each with its names, remarks, grant and
 * holder counts; new, edit grants, delete. A handful of rows, answered whole by the server in
 * the order they were made (built-in ones first).
 */
export default function RolePage({ path }: { path: string }) {
  const t = useT()
  const lang = useLang()
  const host = useCommandHost()
  const version = useReloadKey('roles')
  const editor = useDialog(roleEditor)
  const { focused } = useSnapshot(workspace)
  const [sort, setSort] = useState<Sort>({ key: 'id', order: 'asc' })

  const fetchPage: Fetcher<RoleSummary> = useCallback(async (_after, _limit, signal) => {
    const { items } = await listRoles({ signal })
    return { rows: items, next: null, total: items.length }
  }, [])

  const name = useCallback((r: RoleSummary) => bilingual(r.nameZh, r.nameEn, lang), [lang])
  const columns = useMemo<DenseColumn<RoleSummary>[]>(
    () => [
      {
        id: 'name',
        header: 'org.role.nameZh',
        width: 180,
        render: (r) => (
          <span data-testid="role-row" data-id={r.id}>
            {name(r)}
          </span>
        ),
      },
      { id: 'other', header: 'org.role.nameEn', width: 180, render: (r) => (lang === 'en' ? r.nameZh : r.nameEn) },
      { id: 'remarks', header: 'org.role.remarks', width: 220, render: (r) => r.remarks },
      {
        id: 'builtin',
        header: 'org.role.builtin',
        // Its tag keeps the whole word.
        width: 80,
        fixed: true,
        render: (r) => (r.builtin ? <Tag minimal>{t('org.role.builtin')}</Tag> : ''),
      },
      {
        id: 'grants',
        header: 'org.role.permissions',
        width: 160,
        render: (r) =>
          r.superuser ? (
            <Tag intent="primary" minimal icon="crown">
              {t('org.role.holdsEverything')}
            </Tag>
          ) : (
            `${t('org.role.screens')} ${r.screenCount} · ${t('org.role.permissions')} ${r.permissionCount}`
          ),
      },
      { id: 'users', header: 'org.role.users', width: 80, render: (r) => r.userCount },
      {
        id: 'actions',
        header: 'org.role.actions',
        width: 100,
        fixed: true,
        interactive: true,
        render: (r) => (
          <span className="row-actions">
            <CommandButton id="admin.editRoleGrants" args={{ id: r.id }} icon="edit" variant="minimal" size="small" iconOnly />
            {r.builtin === null && (
              <CommandButton
                id="admin.deleteRole"
                args={{ id: r.id }}
                icon="trash"
                intent="danger"
                variant="minimal"
                size="small"
                iconOnly
              />
            )}
          </span>
        ),
      },
    ],
    [lang, name, t],
  )

  const close = useCallback(() => closeDialog(roleEditor), [])
  const editing = editor && focused === path ? editor : null
  // The open role is this pane's record: its audit history is one command away.
  const editingId = editing?.args.id ?? null
  usePublish(path, editingId !== null ? { kind: 'role', id: editingId, name: `#${editingId}` } : undefined)
  return (
    <div className="admin-page dense-page" data-testid="role-page">
      <DenseTable<RoleSummary>
        testId="role-table"
        columns={columns}
        identifier="name"
        fetchPage={fetchPage}
        queryKey={lang}
        reloadKey={version}
        sort={sort}
        onSort={setSort}
        onOpen={(row) => void host.run('admin.editRoleGrants', 'button', { id: row.id })}
        actions={<CommandButton id="admin.newRole" icon="add" intent="primary" />}
        emptyText={t('org.role.empty')}
      />
      {editing && <RoleEditorDialog key={editing.seq} id={editing.args.id} onClose={close} />}
    </div>
  )
}
