import { useCallback, useMemo, useState } from 'react'
import { Button, H3, InputGroup, Menu, Popover, Tag } from '@blueprintjs/core'
import { HTMLSelect } from '../../ui/HTMLSelect.tsx'
import { useSnapshot } from 'valtio'
import { oneTimePasswordDialog } from '../../../commands/users.ts'
import { lockedForever, type AccountListQuery, type AccountRow, type AccountSortKey } from '../../../contract/users.ts'
import { useReloadKey } from '../../api/query.ts'
import { useLang, useT } from '../../i18n/useT.ts'
import { formatTime } from '../../lib/time.ts'
import { closeDialog, useDialog } from '../../state/dialogs.ts'
import { workspace } from '../../state/workspace.ts'
import { CommandMenuItem } from '../../ui/CommandButton.tsx'
import { DenseTable, type DenseColumn, type Fetcher, type Sort } from '../../ui/DenseTable.tsx'
import { useSettled } from '../../ui/useSettled.ts'
import { listAccounts } from './api/listAccounts.ts'
import { UserOneTimePasswordDialog } from './UserOneTimePasswordDialog.tsx'

const typingDelay = 300
const timeFormat = '{y}-{m}-{d} {h}:{i}'

/**
 * The account screen (SPEC §2 /management/account): every sign-in identity with its person,
 * platform, state, lock, last sign-in and whether the password must change; a row's menu runs
 * the account commands (reset password, lock / unlock, disable / enable).
 */
export default function AccountListPage({ path = '' }: { path?: string }) {
  const t = useT()
  const lang = useLang()
  const [text, setText] = useState('')
  const q = useSettled(text.trim(), typingDelay)
  const [status, setStatus] = useState<AccountListQuery['status']>()
  const [sort, setSort] = useState<Sort<AccountSortKey>>({ key: 'username', order: 'asc' })
  const reloadKey = useReloadKey('accounts')
  const otp = useDialog(oneTimePasswordDialog)
  const { focused } = useSnapshot(workspace)

  const query = useMemo(() => ({ q: q || undefined, status, sort: sort.key, order: sort.order }), [q, status, sort])
  const fetchPage: Fetcher<AccountRow> = useCallback(
    (after, limit, signal) => listAccounts({ ...query, after: after ?? undefined, limit }, { signal }),
    [query],
  )
  const time = useCallback((v: string | null) => (v ? (formatTime(v, timeFormat, lang) ?? '') : ''), [lang])

  const columns = useMemo<DenseColumn<AccountRow>[]>(
    () => [
      { id: 'username', header: 'admin.account.field.username', width: 140, sortKey: 'username', render: (r) => r.username },
      { id: 'person', header: 'admin.account.field.person', width: 130, render: (r) => r.userName },
      { id: 'platform', header: 'admin.account.field.platform', width: 80, render: (r) => r.platform },
      {
        id: 'status',
        header: 'admin.account.field.status',
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
        id: 'lockedUntil',
        header: 'admin.account.field.lockedUntil',
        width: 140,
        render: (r) => (r.lockedUntil === lockedForever ? t('admin.account.forever') : time(r.lockedUntil)),
      },
      {
        id: 'lastLoginAt',
        header: 'admin.account.field.lastLoginAt',
        width: 140,
        sortKey: 'lastLogin',
        render: (r) => time(r.lastLoginAt),
      },
      { id: 'lastLoginIp', header: 'admin.account.field.lastLoginIp', width: 130, render: (r) => r.lastLoginIp ?? '' },
      {
        id: 'mustChange',
        header: 'admin.account.field.mustChange',
        width: 100,
        render: (r) => t(r.mustChangePassword ? 'admin.account.yes' : 'admin.account.no'),
      },
      {
        id: 'actions',
        header: 'admin.account.actions',
        width: 70,
        fixed: true,
        interactive: true,
        render: (r) => (
          <Popover
            placement="bottom-end"
            content={
              <Menu>
                <CommandMenuItem id="admin.resetPassword" icon="key" args={{ accountId: r.id }} />
                {r.lockedUntil ? (
                  <CommandMenuItem id="admin.unlockAccount" icon="unlock" args={{ accountId: r.id }} />
                ) : (
                  <CommandMenuItem id="admin.lockAccount" icon="lock" args={{ accountId: r.id }} />
                )}
                {r.status === 1 ? (
                  <CommandMenuItem id="admin.disableAccount" icon="disable" args={{ accountId: r.id }} />
                ) : (
                  <CommandMenuItem id="admin.enableAccount" icon="confirm" args={{ accountId: r.id }} />
                )}
              </Menu>
            }
          >
            <Button
              variant="minimal"
              size="small"
              icon="more"
              aria-label={`${t('admin.account.actions')} ${r.username}`}
              data-testid={`account-menu-${r.username}`}
            />
          </Popover>
        ),
      },
    ],
    [t, time],
  )

  return (
    <div className="dense-page" data-testid="account-list">
      <div className="dict-header">
        <H3>{t('route.account')}</H3>
      </div>
      <DenseTable<AccountRow>
        testId="account-table"
        columns={columns}
        identifier="username"
        fetchPage={fetchPage}
        queryKey={JSON.stringify(query)}
        reloadKey={reloadKey}
        sort={sort}
        onSort={(s) => setSort(s as Sort<AccountSortKey>)}
        filters={
          <>
            <InputGroup
              leftIcon="search"
              type="search"
              className="dict-search"
              placeholder={t('admin.account.searchPlaceholder')}
              aria-label={t('admin.account.searchPlaceholder')}
              data-testid="account-search"
              value={text}
              onValueChange={setText}
            />
            <HTMLSelect
              aria-label={t('admin.account.field.status')}
              value={status === undefined ? '' : String(status)}
              onChange={(e) => setStatus(e.currentTarget.value === '' ? undefined : e.currentTarget.value === '1' ? 1 : 0)}
              options={[
                { value: '', label: t('admin.user.allStatuses') },
                { value: '1', label: t('admin.user.statuses.1') },
                { value: '0', label: t('admin.user.statuses.0') },
              ]}
            />
          </>
        }
        emptyText={t('admin.account.empty')}
      />
      {focused === path && otp && (
        <UserOneTimePasswordDialog key={otp.seq} otp={otp.args} onClose={() => closeDialog(oneTimePasswordDialog)} />
      )}
    </div>
  )
}
