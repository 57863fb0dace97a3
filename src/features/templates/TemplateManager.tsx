import { useEffect, useMemo, useState } from 'react'
import { Button, HTMLSelect, HTMLTable, InputGroup, NonIdealState, Spinner, Tag } from '@blueprintjs/core'
import { useSnapshot } from 'valtio'
import { collectTypes, type CollectType, type Template, type TemplateKind } from '../../../contract/crf.ts'
import { useT } from '../../i18n/useT.ts'
import { formatTime } from '../../lib/time.ts'
import { workspace } from '../../state/workspace.ts'
import { CommandButton } from '../../ui/CommandButton.tsx'
import { listTemplates } from './api/listTemplates.ts'
import { versionText } from './labels.ts'
import { TemplateEditorDialog } from './TemplateEditorDialog.tsx'
import { closeEditor, templatesUi } from './templatesUi.ts'
import { useTemplatesVersion } from './useTemplatesVersion.ts'

/**
 * CRF manager (crf-template, crfTemplate) or question-group manager (subject-template,
 * subjectTemplate): the list with name, description, collect type, prepose CRFs, status, number
 * of indexes and versions; create, edit, delete, design, preview, open to the side.
 */
export function TemplateManager({ kind, path }: { kind: TemplateKind; path: string }) {
  const t = useT()
  const version = useTemplatesVersion()
  const [q, setQ] = useState('')
  const [collectType, setCollectType] = useState<CollectType | ''>('')
  const [rows, setRows] = useState<Template[] | null>(null)
  const [failed, setFailed] = useState(false)
  const [retry, setRetry] = useState(0)
  const { editor } = useSnapshot(templatesUi)
  const { focused } = useSnapshot(workspace)

  useEffect(() => {
    let live = true
    const timer = setTimeout(() => {
      listTemplates({ kind, q: q.trim() || undefined, collectType: collectType || undefined }).then(
        (list) => {
          if (!live) return
          setRows(list)
          setFailed(false)
        },
        () => live && setFailed(true),
      )
    }, 200)
    return () => {
      live = false
      clearTimeout(timer)
    }
  }, [kind, q, collectType, version, retry])

  // CRF names for the prepose column (a question group has none).
  const names = useMemo(() => new Map((rows ?? []).map((r) => [r.id, r.name])), [rows])
  const crf = kind === 'crf'
  const editing = editor && editor.kind === kind && focused === path ? editor : null

  return (
    <div className="template-manager" data-testid={`template-manager-${kind}`}>
      <div className="template-toolbar">
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
        <CommandButton id={crf ? 'templates.newCrf' : 'templates.newGroup'} icon="add" intent="primary" />
      </div>
      {failed ? (
        <NonIdealState icon="error" title={t('message.loadError')} action={<Button text={t('template.retry')} onClick={() => setRetry((n) => n + 1)} />} />
      ) : rows === null ? (
        <Spinner className="view-spinner" />
      ) : rows.length === 0 ? (
        <NonIdealState icon="document" title={t(crf ? 'template.emptyCrf' : 'template.emptyGroup')} />
      ) : (
        <HTMLTable className="template-table" compact striped interactive data-testid="template-table">
          <thead>
            <tr>
              <th>{t('template.field.name')}</th>
              <th>{t('template.field.description')}</th>
              <th>{t(crf ? 'template.field.collectType' : 'template.field.attribute')}</th>
              {crf && <th>{t('template.field.prepose')}</th>}
              <th>{t('template.field.status')}</th>
              <th className="num">{t('template.field.indexCount')}</th>
              <th>{t('template.field.version')}</th>
              <th>{t('template.field.updatedAt')}</th>
              <th>{t('template.field.actions')}</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={r.id} data-testid="template-row" data-id={r.id}>
                <td>
                  <CommandButton id="templates.design" args={{ id: r.id, kind }} label={r.name} className="template-name" variant="minimal" size="small" />
                </td>
                <td className="template-desc">{r.description}</td>
                <td>{t(`template.collectType.${r.collectType}`)}</td>
                {crf && <td>{r.preposeIds.map((p) => names.get(p) ?? `#${p}`).join(', ')}</td>}
                <td>
                  <Tag minimal intent={r.status === 1 ? 'success' : 'none'}>
                    {t(r.status === 1 ? 'template.status.on' : 'template.status.off')}
                  </Tag>
                </td>
                <td className="num">{r.indexCount}</td>
                <td>{versionText(t, r.draft, r.published)}</td>
                <td>{formatTime(r.updatedAt) ?? ''}</td>
                <td className="template-actions">
                  <CommandButton id="templates.previewOf" args={{ id: r.id }} icon="eye-open" variant="minimal" size="small" iconOnly />
                  <CommandButton id="templates.openToSide" args={{ id: r.id, kind }} icon="add-column-right" variant="minimal" size="small" iconOnly />
                  <CommandButton id="templates.edit" args={{ id: r.id, kind }} icon="edit" variant="minimal" size="small" iconOnly />
                  <CommandButton id="templates.delete" args={{ id: r.id, kind, name: r.name }} icon="trash" intent="danger" variant="minimal" size="small" iconOnly />
                </td>
              </tr>
            ))}
          </tbody>
        </HTMLTable>
      )}
      {editing && <TemplateEditorDialog key={editing.seq} kind={kind} id={editing.id} onClose={closeEditor} />}
    </div>
  )
}
