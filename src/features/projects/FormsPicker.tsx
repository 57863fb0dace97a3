import { Checkbox, H5, InputGroup, Spinner, Tag } from '@blueprintjs/core'
import { HTMLSelect } from '../../ui/HTMLSelect.tsx'
import { useState } from 'react'
import type { Template, TemplateKind } from '../../../contract/crf.ts'
import type { ProjectForm } from '../../../contract/projects.ts'
import { useApi } from '../../api/query.ts'
import { useT } from '../../i18n/useT.ts'
import type { DraftForm } from '../../state/projectDraft.ts'
import { CommandButton } from '../../ui/CommandButton.tsx'
import { listTemplates } from './api/listTemplates.ts'
import { listVersions } from './api/listVersions.ts'

/** Enough rows to pick from by keyboard; the filter narrows the rest. */
const shownMax = 100

/**
 * The index info: the CRFs and question groups a project collects, each pinned to a published
 * version (the newest by default, or an older one picked here). A pin the project already holds
 * (`pinned`, on the edit page) keeps its version; a newer published one is offered as an explicit
 * upgrade.
 */
export function FormsPicker({
  chosen,
  onChange,
  pinned,
  projectId,
}: {
  chosen: readonly DraftForm[]
  onChange(next: DraftForm[]): void
  pinned?: ReadonlyMap<number, ProjectForm>
  projectId?: number
}) {
  return (
    <div className="project-forms">
      {(['crf', 'group'] as const).map((kind) => (
        <KindList key={kind} kind={kind} chosen={chosen} onChange={onChange} pinned={pinned} projectId={projectId} />
      ))}
    </div>
  )
}

function KindList({
  kind,
  chosen,
  onChange,
  pinned,
  projectId,
}: {
  kind: TemplateKind
  chosen: readonly DraftForm[]
  onChange(next: DraftForm[]): void
  pinned?: ReadonlyMap<number, ProjectForm>
  projectId?: number
}) {
  const t = useT()
  const [filter, setFilter] = useState('')
  const templates = useApi(['templates', 'projectChoices', kind], (signal) => listTemplates(kind, { signal }))
  const title = t(kind === 'crf' ? 'projectSetup.index.crf' : 'projectSetup.index.group')
  const byId = new Map(chosen.map((f) => [f.templateId, f]))
  const needle = filter.trim().toLowerCase()
  const rows = (templates.data ?? []).filter((tpl) => byId.has(tpl.id) || needle === '' || tpl.name.toLowerCase().includes(needle))

  const toggle = (tpl: Template, on: boolean) => {
    if (!on) return onChange(chosen.filter((f) => f.templateId !== tpl.id))
    if (!tpl.published) return
    onChange([...chosen, { templateId: tpl.id, kind, name: tpl.name, versionId: tpl.published.id, version: tpl.published.version }])
  }
  const repin = (templateId: number, versionId: number, version: number) =>
    onChange(chosen.map((f) => (f.templateId === templateId ? { ...f, versionId, version } : f)))

  const filterId = `forms-filter-${kind}`
  return (
    <section className="project-forms-kind" aria-label={title} data-testid={`forms-${kind}`}>
      <H5>{title}</H5>
      <InputGroup
        id={filterId}
        type="search"
        leftIcon="search"
        aria-label={`${t('common.search')} · ${title}`}
        placeholder={t('common.search')}
        value={filter}
        onChange={(e) => setFilter(e.currentTarget.value)}
        data-testid={`forms-filter-${kind}`}
      />
      {templates.data === undefined ? (
        <Spinner size={20} aria-label={t('projectSetup.index.loading')} />
      ) : rows.length === 0 ? (
        <p className="project-muted">{t('projectSetup.index.none')}</p>
      ) : (
        <ul className="project-form-list">
          {rows.slice(0, shownMax).map((tpl) => {
            const pick = byId.get(tpl.id)
            const pin = pinned?.get(tpl.id)
            return (
              <li key={tpl.id} className="project-form-row" data-testid="form-row" data-template={tpl.id}>
                <Checkbox
                  className="project-form-check"
                  checked={pick !== undefined}
                  disabled={pick === undefined && !tpl.published}
                  label={tpl.name}
                  onChange={(e) => toggle(tpl, e.currentTarget.checked)}
                  data-testid="form-check"
                />
                {pick === undefined ? (
                  !tpl.published && (
                    <Tag minimal className="project-muted">
                      {t('projectSetup.index.noPublished')}
                    </Tag>
                  )
                ) : pin ? (
                  <>
                    <Tag minimal intent="primary" data-testid="form-pinned">
                      {t('projectSetup.index.versionLabel', [pin.version])}
                    </Tag>
                    {projectId !== undefined && pin.latestVersionId !== null && pin.latestVersion !== null && (
                      <CommandButton
                        id="projectSetup.upgradeForm"
                        small
                        icon="upload"
                        label={t('projectSetup.index.upgradeTo', [pin.latestVersion])}
                        args={{
                          id: projectId,
                          templateId: pin.templateId,
                          versionId: pin.latestVersionId,
                          name: pin.name,
                          from: pin.version,
                          to: pin.latestVersion,
                        }}
                      />
                    )}
                  </>
                ) : (
                  <VersionSelect pick={pick} onPick={(versionId, version) => repin(tpl.id, versionId, version)} />
                )}
              </li>
            )
          })}
        </ul>
      )}
    </section>
  )
}

/** The published versions of one picked template. */
function VersionSelect({ pick, onPick }: { pick: DraftForm; onPick(versionId: number, version: number): void }) {
  const t = useT()
  const versions = useApi(['templates', 'versions', pick.templateId], (signal) => listVersions(pick.templateId, { signal }))
  const published = (versions.data ?? []).filter((v) => v.state === 'published').reverse()
  const options = published.length > 0 ? published : [{ id: pick.versionId, version: pick.version }]
  return (
    <HTMLSelect
      aria-label={t('projectSetup.index.versionOf', [pick.name])}
      value={String(pick.versionId)}
      onChange={(e) => {
        const v = options.find((o) => o.id === Number(e.currentTarget.value))
        if (v) onPick(v.id, v.version)
      }}
      options={options.map((v) => ({ value: String(v.id), label: t('projectSetup.index.versionLabel', [v.version]) }))}
      data-testid="form-version"
    />
  )
}
