import { useState } from 'react'
import { Button, Callout, Card, DialogBody, DialogFooter, FormGroup, H3, InputGroup, NonIdealState, Spinner, Tag } from '@blueprintjs/core'
import { HTMLSelect } from '../../ui/HTMLSelect.tsx'
import { Dialog } from '../../ui/Dialog.tsx'
import { diseaseInput, type Disease } from '../../../contract/dictionary.ts'
import { useLang, useT } from '../../i18n/useT.ts'
import { useCommandHost } from '../../ui/commandHost.tsx'
import { CommandButton } from '../../ui/CommandButton.tsx'
import { DiseaseIcon, drawnIcons } from './DiseaseIcon.tsx'
import { listDiseases } from './api/listDiseases.ts'
import { listTimeline } from './api/listTimeline.ts'
import { useApi } from '../../api/query.ts'
import { useHolds } from '../../state/session.ts'
import { bilingual } from '../../../contract/bilingual.ts'
import { BusyButton } from '../../ui/BusyButton.tsx'

type Editing = { id?: number; name: string; nameEn: string; icon: string }

/**
 * The disease index (SPEC §2 diseaseList, §3 Disease): each disease with its icon and its
 * numbers of dictionaries (small classes), fields and selected fields; create, edit, delete.
 * A card opens the disease's indicators in the system index.
 */
export default function DiseaseListPage() {
  const t = useT()
  const lang = useLang()
  const host = useCommandHost()
  const diseases = useApi(['diseases'], (signal) => listDiseases({ signal }))
  const timeline = useApi(['timeline'], (signal) => listTimeline({ signal }))
  const [editing, setEditing] = useState<Editing | null>(null)
  const canCreate = useHolds('dictionary.create')

  const label = (d: { name: string; nameEn: string }) => bilingual(d.name, d.nameEn, lang)
  const other = (d: { name: string; nameEn: string }) => (lang === 'en' ? (d.nameEn ? d.name : '') : d.nameEn)

  return (
    <div className="disease-page" data-testid="disease-list">
      <div className="dict-header">
        <H3>{t('route.diseaseList')}</H3>
        <div className="dict-header-actions">
          {canCreate && (
            <Button
              icon="plus"
              intent="primary"
              text={t('disease.new')}
              data-testid="disease-new"
              onClick={() => setEditing({ name: '', nameEn: '', icon: 'pulse' })}
            />
          )}
          <CommandButton id="dictionary.newIndicator" icon="add-column-right" />
          <CommandButton id="dictionary.import" icon="import" />
          <CommandButton id="dictionary.export" icon="export" />
        </div>
      </div>

      {timeline.data && timeline.data.length > 0 && (
        <div className="timeline-strip" aria-label={t('disease.timeline')} data-testid="timeline-strip">
          <span className="timeline-label">{t('disease.timeline')}</span>
          {timeline.data.map((item) => (
            <span key={item.id} className="timeline-item" title={other(item)}>
              <DiseaseIcon icon={item.icon} size={20} />
              {label(item)}
            </span>
          ))}
        </div>
      )}

      {diseases.data === undefined ? (
        diseases.error ? (
          <NonIdealState icon="error" title={t('message.loadError')} />
        ) : (
          <Spinner className="view-spinner" />
        )
      ) : diseases.data.length === 0 ? (
        <NonIdealState icon="pulse" title={t('disease.empty')} />
      ) : (
        <div className="disease-grid">
          {diseases.data.map((d) => (
            <DiseaseCard
              key={d.id}
              disease={d}
              title={label(d)}
              subtitle={other(d)}
              onOpen={(toSide) => void host.run('dictionary.openDisease', 'button', { id: d.id, toSide })}
              onEdit={() => setEditing({ id: d.id, name: d.name, nameEn: d.nameEn, icon: d.icon })}
            />
          ))}
        </div>
      )}
      {editing && <DiseaseDialog initial={editing} onClose={() => setEditing(null)} />}
    </div>
  )
}

function DiseaseCard({
  disease: d,
  title,
  subtitle,
  onOpen,
  onEdit,
}: {
  disease: Disease
  title: string
  subtitle: string
  onOpen: (toSide: boolean) => void
  onEdit: () => void
}) {
  const t = useT()
  const canEdit = useHolds('dictionary.edit')
  return (
    <Card
      className="disease-card"
      interactive
      data-testid={`disease-${d.id}`}
      data-name={d.name}
      tabIndex={0}
      aria-label={title}
      onClick={(e) => onOpen(e.ctrlKey || e.metaKey)}
      onKeyDown={(e) => {
        if (e.key === 'Enter' && e.target === e.currentTarget) onOpen(e.ctrlKey || e.metaKey)
      }}
    >
      <div className="disease-card-head">
        <span className="disease-card-icon">
          <DiseaseIcon icon={d.icon} size={32} />
        </span>
        <div className="disease-card-names">
          <div className="disease-card-title">{title}</div>
          {subtitle && <div className="disease-card-sub">{subtitle}</div>}
        </div>
      </div>
      <dl className="disease-counts">
        <div>
          <dt>{t('disease.classCount')}</dt>
          <dd data-testid="disease-class-count">{d.classCount}</dd>
        </div>
        <div>
          <dt>{t('disease.fieldCount')}</dt>
          <dd data-testid="disease-field-count">{d.fieldCount}</dd>
        </div>
        <div>
          <dt>{t('disease.selectedCount')}</dt>
          <dd data-testid="disease-selected-count">{d.selectedCount}</dd>
        </div>
      </dl>
      <div className="disease-card-foot" onClick={(e) => e.stopPropagation()} onKeyDown={(e) => e.stopPropagation()}>
        {d.projectCount > 0 ? (
          <Tag minimal icon="projects">
            {t('disease.projectCount', { count: d.projectCount })}
          </Tag>
        ) : (
          <span />
        )}
        <span>
          {canEdit && (
            <Button
              variant="minimal"
              size="small"
              icon="edit"
              aria-label={t('common.edit')}
              title={t('common.edit')}
              data-testid={`disease-edit-${d.id}`}
              onClick={onEdit}
            />
          )}
          <CommandButton
            id="dictionary.deleteDisease"
            args={{ id: d.id }}
            variant="minimal"
            size="small"
            icon="trash"
            intent="danger"
            iconOnly
          />
        </span>
      </div>
    </Card>
  )
}

function DiseaseDialog({ initial, onClose }: { initial: Editing; onClose: () => void }) {
  const t = useT()
  const host = useCommandHost()
  const [form, setForm] = useState(initial)
  const [error, setError] = useState<string | null>(null)
  const [saving, setSaving] = useState(false)
  const nameMissing = form.name.trim() === ''

  const save = async () => {
    const parsed = diseaseInput.safeParse({ name: form.name, nameEn: form.nameEn, icon: form.icon })
    if (!parsed.success) {
      setError(t('validatorMsg.pleaseInput', [t('disease.name')]))
      return
    }
    setSaving(true)
    const r = await host.run('dictionary.saveDisease', 'button', { id: form.id, input: parsed.data })
    setSaving(false)
    if (r.ok) onClose()
    else setError(r.error instanceof Error ? r.error.message : t('message.saveFailed'))
  }

  const iconChoices = [...new Set([...drawnIcons, 'pulse', form.icon])]
  return (
    <Dialog isOpen onClose={onClose} title={t(form.id === undefined ? 'disease.new' : 'disease.edit')} data-testid="disease-dialog">
      <form
        onSubmit={(e) => {
          e.preventDefault()
          void save()
        }}
      >
        <DialogBody>
          {error && (
            <Callout intent="danger" className="form-error" data-testid="disease-error">
              {error}
            </Callout>
          )}
          <FormGroup label={t('disease.name')} labelFor="disease-name" labelInfo="*" intent={nameMissing && error ? 'danger' : 'none'}>
            <InputGroup id="disease-name" autoFocus value={form.name} maxLength={60} onValueChange={(name) => setForm({ ...form, name })} />
          </FormGroup>
          <FormGroup label={t('disease.nameEn')} labelFor="disease-name-en">
            <InputGroup id="disease-name-en" value={form.nameEn} maxLength={120} onValueChange={(nameEn) => setForm({ ...form, nameEn })} />
          </FormGroup>
          <FormGroup label={t('disease.icon')} labelFor="disease-icon">
            <div className="disease-icon-pick">
              <HTMLSelect id="disease-icon" value={form.icon} onChange={(e) => setForm({ ...form, icon: e.currentTarget.value })}>
                {iconChoices.map((i) => (
                  <option key={i} value={i}>
                    {drawnIcons.includes(i) || i === 'pulse' ? t(`disease.icons.${i}`) : i}
                  </option>
                ))}
              </HTMLSelect>
              <DiseaseIcon icon={form.icon} size={28} />
            </div>
          </FormGroup>
        </DialogBody>
        <DialogFooter
          actions={
            <>
              <Button text={t('common.cancel')} onClick={onClose} />
              <BusyButton type="submit" intent="primary" text={t('common.save')} loading={saving} data-testid="disease-save" />
            </>
          }
        />
      </form>
    </Dialog>
  )
}
