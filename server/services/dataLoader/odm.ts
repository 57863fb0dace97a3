import type { VersionField } from '../../../contract/crf.ts'
import { dateFormatOf, fieldKindOf, isMultiKind } from '../../../contract/fieldKind.ts'
import type { FieldValue } from '../../../contract/formValues.ts'
import { message } from '../../i18n/messages.ts'
import type { ServiceContext } from '../context.ts'
import { pages, subjectsPerPage, type ExportPlan, type RecordOut } from './exportRows.ts'
import type { LoadForm } from './layout.ts'

/**
 * CDISC ODM 1.3.2 (Snapshot), written as it is read: the study's metadata (one MetaDataVersion
 * for the pinned CRF versions: a study event per visit plus one for what is not a visit, a FormDef
 * per CRF version, an ItemGroupDef per section — sub forms repeating —, an ItemDef per field with
 * its question in Chinese and English, a CodeList per choice field), then the clinical data a page
 * of subjects at a time.
 *
 * Choices: several-choice fields follow REDCap's ODM export — one boolean item per option
 * (`<code>___<option>`, 1 chosen, 0 not), since ODM items hold one value. A date-time is written
 * with ODM's 'T' between date and time; partial dates and times are partialDate / partialTime.
 * Sample instances repeat their form keyed by the sample number; sub-form rows repeat their item
 * group keyed by the row number.
 *
 * For those who see groups (as the rand_group column of xlsx and CSV), a project's randomization
 * is one more form of the subject event: `F.RAND`, its item `rand_group` coded by the project's
 * groups. ODM has no element of its own for an allocation; a form of the study is how EDC exports
 * carry one, and any ODM reader takes it.
 */

export interface OdmStudy {
  oid: string
  name: string
  protocol: string
  lang: 'zh' | 'en'
  /** The name of the study event of everything that is not a visit. */
  subjectEventName: string
  /** The name of the randomization form. */
  randomizationName: string
  fileOid: string
  createdAt: string
}

/** C0 controls other than tab, LF and CR are not XML characters at all: left out. */
const notXml = /[\x00-\x08\x0B\x0C\x0E-\x1F\uFFFE\uFFFF]/g
const amp = /[&<>"]/g
const entity: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' }
const needsWork = /[\x00-\x08\x0B\x0C\x0E-\x1F\uFFFE\uFFFF&<>"]/
export const xml = (s: string | number): string => {
  const t = String(s)
  return needsWork.test(t) ? t.replace(notXml, '').replace(amp, (c) => entity[c]!) : t
}

const subjectEvent = 'SE.SUBJECT'
const visitEvent = (visitId: number) => `SE.V${visitId}`
const formOid = (f: LoadForm) => `F.${f.templateId}.V${f.version.version}`
const groupOid = (f: LoadForm, section: string) => `IG.${f.templateId}.${section}`
const itemOid = (f: LoadForm, field: VersionField) => `IT.${f.templateId}.${field.code}`
const optionOid = (f: LoadForm, field: VersionField, code: string) => `IT.${f.templateId}.${field.code}___${code}`
const codeListOid = (f: LoadForm, field: VersionField) => `CL.${f.templateId}.${field.code}`
const rand = { form: 'F.RAND', group: 'IG.RAND', item: 'IT.RAND.rand_group', codeList: 'CL.RAND', name: 'rand_group' }

function dataType(field: VersionField): string {
  const kind = fieldKindOf(field)
  if (kind === 'number') return field.dataType === 'integer' ? 'integer' : 'float'
  if (kind === 'date') return dateFormatOf(field) === 'YYYY-MM-DD' ? 'date' : 'partialDate'
  if (kind === 'time') return dateFormatOf(field) === 'HH:mm:ss' ? 'time' : 'partialTime'
  if (kind === 'dateTime') return dateFormatOf(field) === 'YYYY-MM-DD HH:mm:ss' ? 'datetime' : 'partialDatetime'
  return 'text'
}

const translated = (zh: string, en: string) =>
  `<TranslatedText xml:lang="zh">${xml(zh)}</TranslatedText><TranslatedText xml:lang="en">${xml(en || zh)}</TranslatedText>`

interface FormPlan {
  form: LoadForm
  /** Sections with the fields written of each, empty ones left out. */
  sections: { key: string; title: string; repeating: boolean; fields: { field: VersionField; required: boolean }[] }[]
}

function formPlans(plan: ExportPlan): FormPlan[] {
  return plan.forms.map((form) => {
    const chosen = new Set(plan.sheets.filter((s) => s.templateId === form.templateId).flatMap((s) => s.columns.map((c) => c.field?.id)))
    const byId = new Map(form.version.indicators.map((f) => [f.id, f]))
    const sections = form.version.layout.sections
      .map((s) => ({
        key: s.key,
        title: s.title.replace(/<[^>]*>/g, '') || s.key,
        repeating: s.repeating,
        fields: s.items.flatMap((i) => {
          const field = byId.get(i.indicatorId)
          return field && chosen.has(field.id) ? [{ field, required: i.required }] : []
        }),
      }))
      .filter((s) => s.fields.length > 0)
    return { form, sections }
  })
}

function* metadata(
  plan: ExportPlan,
  forms: FormPlan[],
  study: OdmStudy,
  visitForms: ReadonlyMap<number, readonly number[]>,
): Generator<string> {
  const mdv = `MDV.${plan.forms.map((f) => f.versionId).join('.')}`
  yield '<?xml version="1.0" encoding="UTF-8"?>\n'
  yield `<ODM xmlns="http://www.cdisc.org/ns/odm/v1.3" ODMVersion="1.3.2" FileType="Snapshot" FileOID="${xml(study.fileOid)}" CreationDateTime="${xml(study.createdAt)}">\n`
  yield `<Study OID="${xml(study.oid)}"><GlobalVariables><StudyName>${xml(study.name)}</StudyName><StudyDescription>${xml(study.name)}</StudyDescription><ProtocolName>${xml(study.protocol)}</ProtocolName></GlobalVariables>\n`
  yield `<MetaDataVersion OID="${xml(mdv)}" Name="${xml(plan.forms.map((f) => `${f.name} v${f.version.version}`).join('; '))}">\n`
  const randomized = plan.groups.size > 0
  const plain = [...(randomized ? [rand.form] : []), ...forms.filter((f) => f.form.mode !== 'visit').map((f) => formOid(f.form))]
  const events: { oid: string; name: string; forms: string[] }[] = []
  if (plain.length > 0) events.push({ oid: subjectEvent, name: study.subjectEventName, forms: plain })
  for (const [visitId, name] of plan.visitNames) {
    if (plan.visitIds && !plan.visitIds.includes(visitId)) continue
    const collected = forms.filter((f) => f.form.mode === 'visit' && visitForms.get(visitId)?.includes(f.form.templateId))
    if (collected.length > 0) events.push({ oid: visitEvent(visitId), name, forms: collected.map((f) => formOid(f.form)) })
  }
  yield `<Protocol>${events.map((e, i) => `<StudyEventRef StudyEventOID="${xml(e.oid)}" OrderNumber="${i + 1}" Mandatory="No"/>`).join('')}</Protocol>\n`
  for (const e of events) {
    yield `<StudyEventDef OID="${xml(e.oid)}" Name="${xml(e.name)}" Repeating="No" Type="${e.oid === subjectEvent ? 'Common' : 'Scheduled'}">`
    yield e.forms.map((oid, i) => `<FormRef FormOID="${xml(oid)}" OrderNumber="${i + 1}" Mandatory="No"/>`).join('')
    yield '</StudyEventDef>\n'
  }
  if (randomized)
    yield `<FormDef OID="${rand.form}" Name="${xml(study.randomizationName)}" Repeating="No"><ItemGroupRef ItemGroupOID="${rand.group}" OrderNumber="1" Mandatory="No"/></FormDef>\n`
  for (const f of forms) {
    yield `<FormDef OID="${xml(formOid(f.form))}" Name="${xml(f.form.name)}" Repeating="${f.form.mode === 'sample' ? 'Yes' : 'No'}">`
    yield f.sections
      .map((s, i) => `<ItemGroupRef ItemGroupOID="${xml(groupOid(f.form, s.key))}" OrderNumber="${i + 1}" Mandatory="No"/>`)
      .join('')
    yield '</FormDef>\n'
  }
  if (randomized)
    yield `<ItemGroupDef OID="${rand.group}" Name="${xml(study.randomizationName)}" Repeating="No"><ItemRef ItemOID="${rand.item}" OrderNumber="1" Mandatory="No"/></ItemGroupDef>\n`
  for (const f of forms) {
    for (const s of f.sections) {
      yield `<ItemGroupDef OID="${xml(groupOid(f.form, s.key))}" Name="${xml(s.title)}" Repeating="${s.repeating ? 'Yes' : 'No'}">`
      let n = 0
      for (const { field, required } of s.fields) {
        const refs = isMultiKind(fieldKindOf(field)) ? field.options.map((o) => optionOid(f.form, field, o.code)) : [itemOid(f.form, field)]
        for (const oid of refs) yield `<ItemRef ItemOID="${xml(oid)}" OrderNumber="${++n}" Mandatory="${required ? 'Yes' : 'No'}"/>`
      }
      yield '</ItemGroupDef>\n'
    }
  }
  if (randomized) {
    yield `<ItemDef OID="${rand.item}" Name="${rand.name}" DataType="text">`
    yield `<Question>${translated(message('zh', 'dataLoad.odm.randomization'), message('en', 'dataLoad.odm.randomization'))}</Question>`
    yield `<CodeListRef CodeListOID="${rand.codeList}"/></ItemDef>\n`
  }
  for (const f of forms) {
    for (const { field } of f.sections.flatMap((s) => s.fields)) {
      if (isMultiKind(fieldKindOf(field))) {
        for (const o of field.options) {
          yield `<ItemDef OID="${xml(optionOid(f.form, field, o.code))}" Name="${xml(`${field.code}___${o.code}`)}" DataType="boolean">`
          yield `<Question>${translated(`${field.nameZh}：${o.labelZh}`, field.nameEn ? `${field.nameEn}: ${o.labelEn || o.labelZh}` : '')}</Question></ItemDef>\n`
        }
        continue
      }
      yield `<ItemDef OID="${xml(itemOid(f.form, field))}" Name="${xml(field.code)}" DataType="${dataType(field)}">`
      yield `<Question>${translated(field.nameZh, field.nameEn)}</Question>`
      if (field.options.length > 0) yield `<CodeListRef CodeListOID="${xml(codeListOid(f.form, field))}"/>`
      yield '</ItemDef>\n'
    }
  }
  for (const f of forms) {
    for (const { field } of f.sections.flatMap((s) => s.fields)) {
      if (field.options.length === 0 || isMultiKind(fieldKindOf(field))) continue
      yield `<CodeList OID="${xml(codeListOid(f.form, field))}" Name="${xml(field.code)}" DataType="text">`
      for (const o of field.options)
        yield `<CodeListItem CodedValue="${xml(o.code)}"><Decode>${translated(o.labelZh, o.labelEn)}</Decode></CodeListItem>`
      yield '</CodeList>\n'
    }
  }
  if (randomized) {
    yield `<CodeList OID="${rand.codeList}" Name="${rand.name}" DataType="text">`
    for (const g of plan.groups.values())
      yield `<CodeListItem CodedValue="${xml(g.code)}"><Decode>${translated(g.name, g.name)}</Decode></CodeListItem>`
    yield '</CodeList>\n'
  }
  yield '</MetaDataVersion></Study>\n'
  yield `<ClinicalData StudyOID="${xml(study.oid)}" MetaDataVersionOID="${xml(mdv)}">\n`
}

/** What isEmpty says of a value, without trimming a copy of every text. */
const blank = /^\s*$/
const empty = (v: FieldValue | undefined): boolean => v === undefined || (typeof v === 'string' ? blank.test(v) : v.length === 0)

/** One field's value as ItemData: '' when empty, one per option for several choices. */
type ItemWriter = (value: FieldValue | undefined) => string

/** A field's writer, its ItemOIDs and kind settled once per download rather than per value. */
function itemWriter(f: LoadForm, field: VersionField): ItemWriter {
  const kind = fieldKindOf(field)
  if (isMultiKind(kind)) {
    const options = field.options.map((o) => ({ code: o.code, open: `<ItemData ItemOID="${xml(optionOid(f, field, o.code))}" Value="` }))
    return (value) => {
      if (empty(value)) return ''
      const chosen = typeof value === 'string' ? [value] : value!
      let out = ''
      for (const o of options) out += o.open + (chosen.includes(o.code) ? '1"/>' : '0"/>')
      return out
    }
  }
  const open = `<ItemData ItemOID="${xml(itemOid(f, field))}" Value="`
  const dateTime = kind === 'dateTime'
  return (value) => {
    if (empty(value)) return ''
    const text = typeof value === 'string' ? value : value!.join('|')
    return open + xml(dateTime ? text.replace(' ', 'T') : text) + '"/>'
  }
}

/** A form's FormData writer: its openings and its fields' writers made once. */
function formWriter(p: FormPlan): (r: RecordOut) => string {
  const open = `<FormData FormOID="${xml(formOid(p.form))}"`
  const sample = p.form.mode === 'sample'
  const sections = p.sections.map((s) => ({
    key: s.key,
    repeating: s.repeating,
    open: `<ItemGroupData ItemGroupOID="${xml(groupOid(p.form, s.key))}"`,
    items: s.fields.map(({ field }) => ({ key: field.id, write: itemWriter(p.form, field) })),
  }))
  /** An item group, or '' when none of its items holds a value. */
  const group = (s: (typeof sections)[number], values: Record<string, FieldValue>, repeatKey: string) => {
    let items = ''
    // By number: JSON.parse keeps numeric keys as indexes, which a number reaches without a conversion.
    for (const item of s.items) items += item.write(values[item.key])
    return items === '' ? '' : s.open + repeatKey + items + '</ItemGroupData>'
  }
  return (r) => {
    const repeat = sample ? r.record.sample_no : null
    let out = repeat ? `${open} FormRepeatKey="${xml(repeat)}">` : `${open}>`
    for (const s of sections) {
      if (!s.repeating) {
        out += group(s, r.values, '>')
        continue
      }
      const rows = r.rows.get(s.key) ?? []
      for (let i = 0; i < rows.length; i++) out += group(s, rows[i]!, ` ItemGroupRepeatKey="${i + 1}">`)
    }
    return out + '</FormData>'
  }
}

/**
 * The whole document, a page of subjects per chunk. `counted` is told the form instances and
 * sub-form rows written.
 */
export async function* odmChunks(
  ctx: ServiceContext,
  plan: ExportPlan,
  study: OdmStudy,
  visitForms: ReadonlyMap<number, readonly number[]>,
  counted: (rows: number) => void,
): AsyncGenerator<string> {
  const forms = formPlans(plan)
  yield [...metadata(plan, forms, study, visitForms)].join('')
  const byTemplate = new Map(forms.map((f) => [f.form.templateId, f]))
  const writers = new Map(forms.map((f) => [f.form.templateId, formWriter(f)]))
  const repeating = [...new Set(forms.flatMap((f) => f.sections.filter((s) => s.repeating).map((s) => s.key)))]
  const eventOrder = [subjectEvent, ...[...plan.visitNames.keys()].map(visitEvent)]
  const allocated = new Map(
    [...plan.groups].map(([id, g]) => [
      id,
      `<FormData FormOID="${rand.form}"><ItemGroupData ItemGroupOID="${rand.group}"><ItemData ItemOID="${rand.item}" Value="${xml(g.code)}"/></ItemGroupData></FormData>`,
    ]),
  )
  for await (const records of pages(
    ctx,
    plan,
    forms.map((f) => f.form.templateId),
    repeating,
    subjectsPerPage.odm,
  )) {
    const out: string[] = []
    let rows = 0
    // A page holds its subjects' instances one subject after another.
    for (let start = 0, end = 0; start < records.length; start = end) {
      const subject = records[start]!.record
      const byEvent = new Map<string, RecordOut[]>()
      for (end = start; end < records.length && records[end]!.record.subject_id === subject.subject_id; end++) {
        const r = records[end]!
        const p = byTemplate.get(r.record.template_id)
        if (!p || p.sections.length === 0) continue
        const event = r.record.visit_id === null ? subjectEvent : visitEvent(r.record.visit_id)
        const list = byEvent.get(event)
        if (list) list.push(r)
        else byEvent.set(event, [r])
        rows += 1
        for (const list of r.rows.values()) rows += list.length
      }
      if (byEvent.size === 0) continue
      out.push(`<SubjectData SubjectKey="${xml(subject.subject_no)}">`)
      const allocation = subject.group_id === null ? '' : allocated.get(subject.group_id)
      for (const event of eventOrder) {
        const list = byEvent.get(event)
        const withGroup = event === subjectEvent && allocation
        if (!list && !withGroup) continue
        out.push(`<StudyEventData StudyEventOID="${event}">`)
        if (withGroup) out.push(allocation)
        for (const r of list ?? []) out.push(writers.get(r.record.template_id)!(r))
        out.push('</StudyEventData>')
      }
      out.push('</SubjectData>\n')
    }
    counted(rows)
    if (out.length > 0) yield out.join('')
  }
  yield '</ClinicalData>\n</ODM>\n'
}
