import { useCallback, useMemo, useState } from 'react'
import { InputGroup, Tag } from '@blueprintjs/core'
import { HTMLSelect } from '../../ui/HTMLSelect.tsx'
import { useSnapshot } from 'valtio'
import { collectTypes, type CollectType, type Template, type TemplateKind } from '../../../contract/crf.ts'
import { useT } from '../../i18n/useT.ts'
import { formatTime } from '../../lib/time.ts'
import { workspace } from '../../state/workspace.ts'
import { closeDialog, useDialog } from '../../state/dialogs.ts'
import { templateEditor } from '../../../commands/templates.ts'
import { useCommandHost } from '../../ui/commandHost.tsx'
import { CommandButton } from '../../ui/CommandButton.tsx'
import { DenseTable, type DenseColumn, type Fetcher, type Sort } from '../../ui/DenseTable.tsx'
import { listTemplates } from './api/listTemplates.ts'
import { versionText } from './labels.ts'
import { sortTemplates, type TemplateSortKey } from './sortTemplates.ts'
import { TemplateEditorDialog } from './TemplateEditorDialog.tsx'
import { TemplateName } from './TemplateName.tsx'
import { useReloadKey } from '../../api/query.ts'
import { useSettled } from '../../ui/useSettled.ts'

/** The name search settles for this long before the list asks the server. */
const typingDelay = 200

/**
 * CRF manager (crf-template, crfTemplate) or question-group manager (subject-template,
 * subjectTemplate): the list with name, description, collect type, prepose CRFs, status, number
 * of indexes and versions; create, edit, delete, design, preview, open to the side. The list is
 * the shared DenseTable (DESIGN §6); the API answers it whole, so it is one page sorted here.
 */
export function TemplateManager({ kind, path }: { kind: TemplateKind; path: string }) {
  const t = useT()
  const host = useCommandHost()
  const version = useReloadKey('templates')
  const [q, setQ] = useState('')
  const settledQ = useSettled(q.trim(), typingDelay)
  const [collectType, setCollectType] = useState<CollectType | ''>('')
  const [sort, setSort] = useState<Sort<TemplateSortKey>>({ key: 'name', order: 'asc' })
  // CRF names for the prepose column (a question group has none), from the last list read.
  const [names, setNames] = useState<ReadonlyMap<number, string>>(() => new Map())
  const editor = useDialog(templateEditor)
  const { focused } = useSnapshot(workspace)

  const queryKey = JSON.stringify({ kind, q: settledQ, collectType, sort })
  const fetchPage: Fetcher<Template> = useCallback(
    async (_after, _limit, signal) => {
      const list = await listTemplates({ kind, q: settledQ || undefined, collectType: collectType || undefined })
      if (!signal.aborted) setNames(new Map(list.map((r) => [r.id, r.name])))
      const rows = sortTemplates(list, sort.key, sort.order)
      return { rows, next: null, total: rows.length }
    },
    [kind, settledQ, collectType, sort],
  )

  const crf = kind === 'crf'
  const editing = editor && editor.args.kind === kind && focused === path ? editor : null

  const columns = useMemo<DenseColumn<Template>[]>(
    () => [
      {
        id: 'name',
        header: 'template.field.name',
        width: 200,
        sortKey: 'name',
        interactive: true,
        render: (r) => <TemplateName template={r} kind={kind} />,
      },
      { id: 'description', header: 'template.field.description', width: 240, render: (r) => r.description },
      {
        id: 'collectType',
        header: crf ? 'template.field.collectType' : 'template.field.attribute',
        // 'Research object' whole.
        width: 120,
        fixed: true,
        render: (r) => t(`template.collectType.${r.collectType}`),
      },
      ...(crf
        ? [
            {
              id: 'prepose',
              header: 'template.field.prepose',
              width: 160,
              render: (r: Template) => r.preposeIds.map((p) => names.get(p) ?? `#${p}`).join(', '),
            } satisfies DenseColumn<Template>,
          ]
        : []),
      {
        id: 'status',
        header: 'template.field.status',
        // Its tag keeps the status's whole word.
        width: 80,
        fixed: true,
        render: (r) => (
          <Tag minimal intent={r.status === 1 ? 'success' : 'none'}>
            {t(r.status === 1 ? 'template.status.on' : 'template.status.off')}
          </Tag>
        ),
      },
      { id: 'indexCount', header: 'template.field.indexCount', width: 90, sortKey: 'indexCount', render: (r) => r.indexCount },
      { id: 'version', header: 'template.field.version', width: 150, render: (r) => versionText(t, r.draft, r.published) },
      {
        id: 'updatedAt',
        header: 'template.field.updatedAt',
        width: 150,
        sortKey: 'updatedAt',
        render: (r) => formatTime(r.updatedAt) ?? '',
      },
      {
        id: 'actions',
        header: 'template.field.actions',
        width: 140,
        fixed: true,
        interactive: true,
        render: (r) => (
          <span className="template-actions">
            <CommandButton id="templates.previewOf" args={{ id: r.id }} icon="eye-open" variant="minimal" size="small" iconOnly />
            <CommandButton
              id="templates.openToSide"
              args={{ id: r.id, kind }}
              icon="add-column-right"
              variant="minimal"
              size="small"
              iconOnly
            />
            <CommandButton id="templates.edit" args={{ id: r.id, kind }} icon="edit" variant="minimal" size="small" iconOnly />
            <CommandButton
              id="templates.delete"
              args={{ id: r.id, kind, name: r.name }}
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
    [crf, kind, names, t],
  )

  const filters = (
    <>
      <InputGroup
        leftIcon="search"
        placeholder={t('template.searchName')}
        aria-label={t('template.searchName')}
        value={q}
        onChange={(e) => setQ(e.currentTarget.value)}
        data-testid="template-search"
      />
      <HTMLSelect
        aria-label={t(crf ? 'template.field.collectType' : 'template.field.attribute')}
        value={collectType}
        onChange={(e) => setCollectType(e.currentTarget.value as CollectType | '')}
      >
        <option value="">{t('template.allCollectTypes')}</option>
        {collectTypes.map((c) => (
          <option key={c} value={c}>
            {t(`template.collectType.${c}`)}
          </option>
        ))}
      </HTMLSelect>
    </>
  )

  const run = host.run
  return (
    <div className="template-manager dense-page" data-testid={`template-manager-${kind}`}>
      <DenseTable<Template>
        testId="template-table"
        columns={columns}
        identifier="name"
        fetchPage={fetchPage}
        queryKey={queryKey}
        reloadKey={version}
        sort={sort}
        onSort={(s) => setSort(s as Sort<TemplateSortKey>)}
        onOpen={(row, toSide) => void run(toSide ? 'templates.openToSide' : 'templates.design', 'button', { id: row.id, kind })}
        filters={filters}
        actions={<CommandButton id={crf ? 'templates.newCrf' : 'templates.newGroup'} icon="add" intent="primary" />}
        emptyText={t(crf ? 'template.emptyCrf' : 'template.emptyGroup')}
      />
      {editing && <TemplateEditorDialog key={editing.seq} kind={kind} id={editing.args.id} onClose={() => closeDialog(templateEditor)} />}
    </div>
  )
}
