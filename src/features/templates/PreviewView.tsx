import { useEffect, useMemo, useRef, useState } from 'react'
import { Button, Callout, H4, NonIdealState, Spinner, Switch, Tag } from '@blueprintjs/core'
import { HTMLSelect } from '../../ui/HTMLSelect.tsx'
import type { Template, TemplateVersion, VersionInfo } from '../../../contract/crf.ts'
import { useLang, useT } from '../../i18n/useT.ts'
import { CommandButton } from '../../ui/CommandButton.tsx'
import { focusFirstInvalid, FormRenderer, initialForm, validateForm, type FormData } from '../../ui/FormRenderer.tsx'
import { getLayout } from './api/getLayout.ts'
import { getTemplate } from './api/getTemplate.ts'
import { getVersion } from './api/getVersion.ts'
import { listVersions } from './api/listVersions.ts'
import { kindTitle } from './labels.ts'
import { paramsOf, recordId } from '../../../contract/screenPaths.ts'
import { useApi } from '../../api/query.ts'
import { useArrivalFocus, usePublish } from '../../state/focus.ts'

interface Loaded {
  template: Template
  versions: VersionInfo[]
  def: TemplateVersion
}

/**
 * previewCRF (?id=&version=): the template drawn by the one FormRenderer, in the app's language,
 * as it will be filled in; Validate shows every field's message. Without a version: the draft
 * (else the latest published one).
 */
export function PreviewView({ path }: { path: string }) {
  const t = useT()
  const lang = useLang()
  const id = recordId(path)
  const [chosen, setChosen] = useState<number | null>(() => paramsOf('previewCRF', path)?.version ?? null)
  const query = useApi(
    ['templates', id, 'preview', chosen],
    async (): Promise<Loaded> => {
      if (id === null) throw new Error('no template')
      const [template, versions, def] = await Promise.all([
        getTemplate(id),
        listVersions(id),
        chosen === null ? getLayout(id) : getVersion(id, chosen),
      ])
      return { template, versions, def }
    },
    { enabled: id !== null },
  )
  const loaded = query.data ?? null
  const failed = query.error != null
  const [data, setData] = useState<FormData>({ values: {}, rows: {} })
  const [checked, setChecked] = useState(false)
  const [readOnly, setReadOnly] = useState(false)
  const form = useRef<HTMLDivElement>(null)
  const root = useRef<HTMLDivElement>(null)
  const shownVersion = useRef<number | null>(null)
  usePublish(path, loaded && id !== null ? { kind: loaded.template.kind, id, name: loaded.template.name } : undefined)

  useArrivalFocus(path, root, loaded !== null, ['[data-field] input, [data-field] select, [data-field] textarea', 'h4'])

  // A new version starts a fresh form; a reload of the same one keeps what was typed.
  const shown = loaded?.def
  useEffect(() => {
    if (!shown || shownVersion.current === shown.id) return
    shownVersion.current = shown.id
    setData(initialForm(shown))
    setChecked(false)
  }, [shown])

  const errors = useMemo(() => (loaded ? validateForm(loaded.def, data, lang) : {}), [loaded, data, lang])
  const problems = Object.keys(errors).length

  if (id === null) return <NonIdealState icon="eye-open" title={t('template.noTemplate')} />
  if (failed)
    return (
      <NonIdealState icon="error" title={t('message.loadError')} action={<Button text={t('template.retry')} onClick={query.reload} />} />
    )
  if (!loaded) return <Spinner className="view-spinner" />
  const { template, versions, def } = loaded

  const validate = () => {
    setChecked(true)
    // The messages render first; then the first refused field gets the focus.
    setTimeout(() => form.current && focusFirstInvalid(form.current), 0)
  }

  return (
    <div className="template-preview" data-testid="template-preview" ref={root}>
      <div className="designer-head">
        <H4>
          {template.name}
          <Tag minimal className="designer-kind">
            {kindTitle(t, template.kind)}
          </Tag>
        </H4>
        <div className="designer-state">
          <HTMLSelect
            aria-label={t('template.field.version')}
            value={chosen ?? ''}
            onChange={(e) => setChosen(e.currentTarget.value === '' ? null : Number(e.currentTarget.value))}
            data-testid="preview-version"
          >
            <option value="">{t('template.currentVersion')}</option>
            {versions.map((v) => (
              <option key={v.id} value={v.version}>
                {t(v.state === 'draft' ? 'template.version.draft' : 'template.version.published', [v.version])}
              </option>
            ))}
          </HTMLSelect>
          <Tag minimal intent={def.state === 'published' ? 'success' : 'warning'} data-testid="preview-shown-version">
            {t(def.state === 'draft' ? 'template.version.draft' : 'template.version.published', [def.version])}
          </Tag>
        </div>
      </div>
      <div className="designer-toolbar">
        <Button icon="tick-circle" intent="primary" text={t('template.validate')} onClick={validate} data-testid="preview-validate" />
        <Button
          icon="reset"
          text={t('common.reset')}
          onClick={() => {
            setData(initialForm(def))
            setChecked(false)
          }}
        />
        <CommandButton id="templates.publish" icon="cloud-upload" intent="success" />
        <Switch
          label={t('template.readOnly')}
          checked={readOnly}
          onChange={(e) => setReadOnly(e.currentTarget.checked)}
          className="preview-readonly"
          data-testid="preview-readonly"
        />
      </div>
      {checked && (
        <Callout intent={problems > 0 ? 'warning' : 'success'} className="preview-result" data-testid="preview-result">
          {problems > 0 ? t('template.problems', [problems]) : t('template.noProblems')}
        </Callout>
      )}
      <div ref={form}>
        <FormRenderer definition={def} value={data} onChange={setData} showAllErrors={checked} readOnly={readOnly} />
      </div>
    </div>
  )
}
