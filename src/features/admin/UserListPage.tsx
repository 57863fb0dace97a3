import { useCallback, useEffect, useMemo, useState } from 'react'
import { Button, Checkbox, H3, InputGroup, Menu, Popover, Tag } from '@blueprintjs/core'
import { HTMLSelect } from '../../ui/HTMLSelect.tsx'
import { useSnapshot } from 'valtio'
import { oneTimePasswordDialog, userEditor } from '../../../commands/users.ts'
import { paramsOf } from '../../../contract/screenPaths.ts'
import type { UserListQuery, UserRow, UserSortKey } from '../../../contract/users.ts'
import { useApi, useReloadKey } from '../../api/query.ts'
import { useLang, useT } from '../../i18n/useT.ts'
import { formatTime } from '../../lib/time.ts'
import { closeDialog, openDialog, useDialog } from '../../state/dialogs.ts'
import { usePublish } from '../../state/focus.ts'
import { workspace } from '../../state/workspace.ts'
import { useCommandHost } from '../../ui/commandHost.tsx'
import { CommandButton, CommandMenuItem } from '../../ui/CommandButton.tsx'
import { DenseTable, type DenseColumn, type Fetcher, type Sort } from '../../ui/DenseTable.tsx'
import { useSettled } from '../../ui/useSettled.ts'
import { listCareers } from './api/listCareers.ts'
import { listDepartments } from './api/listDepartments.ts'
import { listRoles } from './api/listRoles.ts'
import { bilingual } from '../../../contract/bilingual.ts'
import { listUsers } from './api/listUsers.ts'
import { UserDialog } from './UserDialog.tsx'
import { UserOneTimePasswordDialog } from './UserOneTimePasswordDialog.tsx'

type Filters = Pick<Partial<UserListQuery>, 'departmentId' | 'subDepartments' | 'careerId' | 'status' | 'roleId'>

/** Text inputs settle for this long before the list asks the server. */
const typingDelay = 300

/** A select's value as an id, or undefined for "all". */
const idOf = (v: string) => (v ? Number(v) : undefined)

/**
 * The user screen (SPEC §2 /management/user): people in one DenseTable, server sorted, filtered by
 * a name / username / mobile prefix, department (with sub-departments), career, status and role,
 * keyset paged. A row's buttons and menu run the admin commands; the open person is the focused
 * record, so the record's audit history and the palette's commands act on them.
 */
export default function UserListPage({ path = '' }: { path?: string }) {
  const t = useT()
  const lang = useLang()
  const host = useCommandHost()
  const run = host.run
  const [filters, setFilters] = useState<Filters>({})
  const [text, setText] = useState('')
  const q = useSettled(text.trim(), typingDelay)
  const [sort, setSort] = useState<Sort<UserSortKey>>({ key: 'name', order: 'asc' })
  const reloadKey = useReloadKey('users')
  const roleList = useApi(['roles'], (signal) => listRoles({ signal }))
  const departments = useApi(['departments'], (signal) => listDepartments({ signal, toast: false }))
  const careers = useApi(['careers', 'all'], (signal) => listCareers({ limit: 1000 }, { signal, toast: false }))
  const roles = useMemo(
    () => ({ data: roleList.data?.items.map((r) => ({ id: r.id, name: bilingual(r.nameZh, r.nameEn, lang), builtin: r.builtin })) }),
    [roleList.data, lang],
  )
  const editor = useDialog(userEditor)
  const otp = useDialog(oneTimePasswordDialog)
  const { focused } = useSnapshot(workspace)
  const here = focused === path
  const [openName, setOpenName] = useState<string | undefined>()

  // A palette record opens this screen with `?id=`: that person's dialog opens.
  const linked = paramsOf('user', path)?.id
  useEffect(() => {
    if (linked !== undefined) openDialog(userEditor, { id: linked })
  }, [linked])

  const editingId = here && editor ? editor.args.id : null
  usePublish(path, editingId !== null ? { kind: 'user', id: editingId, name: openName ?? `#${editingId}` } : undefined)

  const query = useMemo(() => ({ ...filters, q: q || undefined, sort: sort.key, order: sort.order }), [filters, q, sort])
  const queryKey = JSON.stringify(query)
  const fetchPage: Fetcher<UserRow> = useCallback(
    (after, limit, signal) => listUsers({ ...query, after: after ?? undefined, limit }, { signal }),
    [query],
  )

  const open = useCallback(
    (row: UserRow) => {
      setOpenName(row.name)
      void run('admin.editUser', 'button', { id: row.id })
    },
    [run],
  )

  const columns = useMemo<DenseColumn<UserRow>[]>(
    () => [
      { id: 'name', header: 'admin.user.field.name', width: 140, sortKey: 'name', render: (r) => r.name },
      { id: 'usernames', header: 'admin.user.field.usernames', width: 140, render: (r) => r.usernames.join(', ') },
      { id: 'department', header: 'admin.user.field.department', width: 130, sortKey: 'department', render: (r) => r.department ?? '' },
      { id: 'career', header: 'admin.user.field.career', width: 110, sortKey: 'career', render: (r) => r.career ?? '' },
      { id: 'mobile', header: 'admin.user.field.mobile', width: 120, render: (r) => r.mobile },
      { id: 'email', header: 'admin.user.field.email', width: 170, render: (r) => r.email },
      { id: 'roles', header: 'admin.user.field.roles', width: 170, render: (r) => r.roles.map((x) => x.name).join(', ') },
      {
        id: 'status',
        header: 'admin.user.field.status',
        // Its tag keeps the whole word.
        width: 80,
        fixed: true,
        render: (r) => (
          <Tag minimal intent={r.status === 1 ? 'success' : 'none'}>
            {t(`admin.user.statuses.${r.status === 1 ? 1 : 0}`)}
          </Tag>
        ),
      },
      {
        id: 'createdAt',
        header: 'admin.user.field.createdAt',
        width: 140,
        sortKey: 'created',
        render: (r) => formatTime(r.createdAt, '{y}-{m}-{d} {h}:{i}', lang) ?? '',
      },
      {
        id: 'actions',
        header: 'admin.user.actions',
        width: 90,
        fixed: true,
        interactive: true,
        render: (r) => (
          <span className="user-row-actions" data-testid={`user-row-${r.id}`}>
            <Button
              variant="minimal"
              size="small"
              icon="edit"
              aria-label={`${t('common.edit')} ${r.name}`}
              title={t('common.edit')}
              data-testid={`user-edit-${r.id}`}
              onClick={() => open(r)}
            />
            <Popover
              placement="bottom-end"
              content={
                <Menu>
                  <CommandMenuItem id="admin.resetPassword" icon="key" args={{ userId: r.id }} />
                  <CommandMenuItem id="admin.lockAccount" icon="lock" args={{ userId: r.id }} />
                  <CommandMenuItem id="admin.unlockAccount" icon="unlock" args={{ userId: r.id }} />
                  {r.status === 1 ? (
                    <CommandMenuItem id="admin.disableUser" icon="disable" args={{ id: r.id }} />
                  ) : (
                    <CommandMenuItem id="admin.enableUser" icon="confirm" args={{ id: r.id }} />
                  )}
                  <CommandMenuItem id="admin.deleteUser" icon="trash" intent="danger" args={{ id: r.id }} />
                </Menu>
              }
            >
              <Button
                variant="minimal"
                size="small"
                icon="more"
                aria-label={`${t('admin.user.actions')} ${r.name}`}
                data-testid={`user-menu-${r.id}`}
              />
            </Popover>
          </span>
        ),
      },
    ],
    [t, lang, open],
  )

  const set = (patch: Partial<Filters>) => setFilters((f) => ({ ...f, ...patch }))

  const filterBar = (
    <>
      <InputGroup
        leftIcon="search"
        type="search"
        className="dict-search"
        placeholder={t('admin.user.searchPlaceholder')}
        aria-label={t('admin.user.searchPlaceholder')}
        data-testid="user-search"
        value={text}
        onValueChange={setText}
      />
      <HTMLSelect
        aria-label={t('admin.user.field.department')}
        data-testid="user-filter-department"
        value={filters.departmentId === undefined ? '' : String(filters.departmentId)}
        onChange={(e) => set({ departmentId: idOf(e.currentTarget.value) })}
        options={[
          { value: '', label: t('admin.user.allDepartments') },
          ...(departments.data?.items ?? []).map((d) => ({ value: String(d.id), label: d.name })),
        ]}
      />
      <Checkbox
        className="user-filter-sub"
        label={t('admin.user.subDepartments')}
        checked={filters.subDepartments === true}
        disabled={filters.departmentId === undefined}
        onChange={() => set({ subDepartments: !filters.subDepartments })}
      />
      <HTMLSelect
        aria-label={t('admin.user.field.career')}
        data-testid="user-filter-career"
        value={filters.careerId === undefined ? '' : String(filters.careerId)}
        onChange={(e) => set({ careerId: idOf(e.currentTarget.value) })}
        options={[
          { value: '', label: t('admin.user.allCareers') },
          ...(careers.data?.items ?? []).map((c) => ({ value: String(c.id), label: c.name })),
        ]}
      />
      <HTMLSelect
        aria-label={t('admin.user.field.status')}
        data-testid="user-filter-status"
        value={filters.status === undefined ? '' : String(filters.status)}
        onChange={(e) => set({ status: e.currentTarget.value === '' ? undefined : e.currentTarget.value === '1' ? 1 : 0 })}
        options={[
          { value: '', label: t('admin.user.allStatuses') },
          { value: '1', label: t('admin.user.statuses.1') },
          { value: '0', label: t('admin.user.statuses.0') },
        ]}
      />
      <HTMLSelect
        aria-label={t('admin.user.field.roles')}
        data-testid="user-filter-role"
        value={filters.roleId === undefined ? '' : String(filters.roleId)}
        onChange={(e) => set({ roleId: idOf(e.currentTarget.value) })}
        options={[
          { value: '', label: t('admin.user.allRoles') },
          ...(roles.data ?? []).map((r) => ({ value: String(r.id), label: r.name })),
        ]}
      />
      <Button
        variant="minimal"
        icon="filter-remove"
        text={t('common.reset')}
        onClick={() => {
          setFilters({})
          setText('')
        }}
      />
    </>
  )

  const closeEditor = useCallback(() => closeDialog(userEditor), [])
  return (
    <div className="dense-page" data-testid="user-list">
      <div className="dict-header">
        <H3>{t('route.user')}</H3>
        <div className="dict-header-actions">
          <span data-testid="user-create">
            <CommandButton id="admin.newUser" icon="plus" intent="primary" />
          </span>
          <CommandButton id="admin.findUser" icon="search-template" iconOnly />
        </div>
      </div>
      <DenseTable<UserRow>
        testId="user-table"
        columns={columns}
        identifier="name"
        fetchPage={fetchPage}
        queryKey={queryKey}
        reloadKey={reloadKey}
        sort={sort}
        onSort={(s) => setSort(s as Sort<UserSortKey>)}
        onOpen={(row) => open(row)}
        filters={filterBar}
        emptyText={t('admin.user.empty')}
      />
      {here && editor && (
        <UserDialog
          key={editor.seq}
          id={editor.args.id}
          roles={roles.data ?? []}
          departments={departments.data?.items ?? []}
          careers={careers.data?.items ?? []}
          onClose={closeEditor}
        />
      )}
      {here && otp && <UserOneTimePasswordDialog key={otp.seq} otp={otp.args} onClose={() => closeDialog(oneTimePasswordDialog)} />}
    </div>
  )
}
