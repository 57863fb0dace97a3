import {
  dataTypes,
  dateFormats,
  displayForms,
  indexCategories,
  indicatorTypes,
  type Choice,
  type Indicator,
  type IndicatorInput,
} from '../../../contract/dictionary.ts'
import { optionSeparator, ownColumns, type OwnColumn } from '../../../contract/dictionaryExchange.ts'
import { displayFor, hasChoice, nextChoiceCode } from '../../../contract/indicatorRules.ts'
import { ServiceError } from '../errors.ts'
import type { Draft, Param, RowProblem, Table } from './model.ts'
import type { XlsxCell } from './xlsx.ts'

/**
 * Our own layout: one row per indicator, the contract's field names as headers (export), and on
 * import also the Chinese headers a person is likely to type (Chinese Excel users rename columns),
 * and Chinese labels for the enumerations.
 */

const field: Record<OwnColumn, keyof IndicatorInput> = {
  code: 'code',
  nameZh: 'nameZh',
  nameEn: 'nameEn',
  comment: 'comment',
  type: 'type',
  display: 'display',
  dataType: 'dataType',
  options: 'options',
  optionsEn: 'options',
  dependentCode: 'dependentFieldId',
  dependentValue: 'dependentValue',
  unit: 'unit',
  minimum: 'minimum',
  maximum: 'maximum',
  dateFormat: 'dateFormat',
  defaultValue: 'defaultValue',
  status: 'status',
  indexClass: 'indexClass',
  category: 'category',
  disease: 'diseaseId',
}

/** Chinese headers accepted on import; the first one is named when the column is missing. */
const zhHeaders: Record<OwnColumn, string[]> = {
  code: ['编码', '指标编码', '代码'],
  nameZh: ['中文名', '中文名称', '名称', '指标名称'],
  nameEn: ['英文名', '英文名称'],
  comment: ['注释', '备注', '说明'],
  type: ['类型', '指标类型'],
  display: ['显示形式', '展示形式'],
  dataType: ['数据类型'],
  options: ['选项值', '选项'],
  optionsEn: ['英文选项值', '英文选项'],
  dependentCode: ['依赖字段', '依赖字段编码', '依赖指标'],
  dependentValue: ['依赖取值', '依赖值'],
  unit: ['单位'],
  minimum: ['最小值'],
  maximum: ['最大值'],
  dateFormat: ['日期格式'],
  defaultValue: ['默认值'],
  status: ['状态'],
  indexClass: ['指标分类', '分类'],
  category: ['指标类别', '类别'],
  disease: ['病种', '疾病', '病种名称'],
}
const enHeaders: Partial<Record<OwnColumn, string[]>> = {
  dependentCode: ['dependentField'],
  minimum: ['min'],
  maximum: ['max'],
  defaultValue: ['default'],
  category: ['indexCategory'],
  disease: ['diseaseName'],
}

/** Headers compared without case, blanks, '_', '-', '*' (a required mark), brackets; full-width folded. */
const looseName = (h: string) =>
  h
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[\s_\-*()[\]]/g, '')

const columnByName = new Map<string, OwnColumn>()
for (const c of ownColumns) {
  for (const name of [c, ...zhHeaders[c], ...(enHeaders[c] ?? [])]) columnByName.set(looseName(name), c)
}

const requiredColumns: readonly OwnColumn[] = ['code', 'nameZh', 'type']

export const isOwnHeader = (header: readonly string[]) => header.some((h) => columnByName.get(looseName(h)) === 'code')

/** Chinese labels of enumeration values (the canonical English values are always accepted). */
const valueAliases: Partial<Record<OwnColumn, Record<string, string>>> = {
  type: { 单选: 'single', 单选题: 'single', 多选: 'multiple', 多选题: 'multiple', 填空: 'blank', 填空题: 'blank', 日期: 'date' },
  display: {
    单选框: 'radio',
    复选框: 'checkbox',
    多选框: 'checkbox',
    下拉: 'select',
    下拉框: 'select',
    输入框: 'input',
    文本框: 'input',
    多行文本: 'textarea',
    文本域: 'textarea',
  },
  dataType: { 文本: 'text', 整数: 'integer', 小数: 'decimal' },
  category: { 全部: 'all', 研究对象: 'object', 随访: 'followUp', 访视: 'interview', 其他: 'other', 样本: 'sample' },
  status: { 启用: '1', 停用: '0', enabled: '1', disabled: '0', true: '1', false: '0' },
}
const allowed: Partial<Record<OwnColumn, readonly string[]>> = {
  type: indicatorTypes,
  display: displayForms,
  dataType: dataTypes,
  category: indexCategories,
  status: ['1', '0'],
  dateFormat: dateFormats,
}

const numberText = /^[-+]?(\d+(\.\d*)?|\.\d+)([eE][-+]?\d+)?$/

/** Rows of our layout as drafts; a missing required column refuses the whole file, naming it. */
export function mapOwnRows(table: Table): Draft[] {
  const index = new Map<OwnColumn, number>()
  table.header.forEach((h, i) => {
    const c = columnByName.get(looseName(h))
    if (!c) return
    if (index.has(c)) throw new ServiceError('badRequest', 'import.duplicateColumn', [h])
    index.set(c, i)
  })
  const missing = requiredColumns.filter((c) => !index.has(c))
  if (missing.length > 0) {
    throw new ServiceError('badRequest', 'import.badColumns', [missing.map((c) => `${c} (${zhHeaders[c][0]})`).join(', ')])
  }
  const headerOf = (c: OwnColumn) => {
    const i = index.get(c)
    return i === undefined ? c : (table.header[i] ?? c)
  }
  const columnOf: Draft['columnOf'] = {}
  for (const c of ownColumns) columnOf[field[c]] ??= headerOf(c)
  const present = new Set([...index.keys()].map((c) => field[c]))
  const absent = [...new Set(ownColumns.map((c) => field[c]))].filter((f) => !present.has(f))

  return table.rows.map(({ row, cells }) => {
    const problems: RowProblem[] = []
    const cell = (c: OwnColumn) => {
      const i = index.get(c)
      return i === undefined ? '' : (cells[i] ?? '').trim()
    }
    const problem = (c: OwnColumn, key: RowProblem['key'], params: Param[]) =>
      problems.push({ row, column: headerOf(c), field: field[c], key, params })

    /** An enumeration cell: the canonical value in any case, or a Chinese label; '' keeps the default. */
    const choice = (c: OwnColumn, fallback: string | null): string | null => {
      const raw = cell(c)
      if (raw === '') return fallback
      const values = allowed[c] ?? []
      const exact = values.find((v) => v.toLowerCase() === raw.toLowerCase())
      const alias = valueAliases[c]?.[raw] ?? valueAliases[c]?.[raw.toLowerCase()]
      if (exact ?? alias) return exact ?? alias ?? null
      problem(c, 'import.badValue', [{ label: field[c] }, raw, values.join(', ')])
      return fallback
    }
    const number = (c: OwnColumn): number | null => {
      const raw = cell(c)
      if (raw === '') return null
      if (numberText.test(raw) && Number.isFinite(Number(raw))) return Number(raw)
      problem(c, 'rule.number', [])
      return null
    }

    const type = choice('type', null)
    const typeKey = type as IndicatorInput['type'] | null
    const dependentCode = cell('dependentCode')
    const options = parseOwnChoices(cell('options'), cell('optionsEn'))
    const dependentValue = cell('dependentValue')
    if (!dependentCode && dependentValue) problem('dependentCode', 'rule.required', [{ label: 'dependentFieldId' }])
    const input: Draft['input'] = {
      code: cell('code'),
      nameZh: cell('nameZh'),
      nameEn: cell('nameEn'),
      // The comment may carry a kept @redcap line (see redcap.ts): only its ends are trimmed.
      comment: cell('comment'),
      type: type ?? cell('type'),
      // No display given: the type's first form. With a refused type any value will do, the row fails
      // on its type already and should not also be told to fill in a display form.
      display: choice(
        'display',
        typeKey && indicatorTypes.includes(typeKey) ? displayFor[typeKey][0] : type === null && cell('type') ? 'input' : null,
      ),
      dataType: choice('dataType', 'text'),
      options,
      dependentFieldId: null,
      dependentValue: dependentCode ? dependentValue : null,
      unit: cell('unit'),
      minimum: number('minimum'),
      maximum: number('maximum'),
      dateFormat: choice('dateFormat', null),
      defaultValue: ownDefault(cell('defaultValue'), type, options),
      status: Number(choice('status', '1')) === 0 ? 0 : 1,
      indexClass: cell('indexClass'),
      category: choice('category', 'all'),
      diseaseId: null,
    }
    return {
      row,
      input,
      dependent: dependentCode ? { code: dependentCode, value: dependentValue, by: 'code' } : null,
      diseaseName: cell('disease') || null,
      columnOf,
      absent,
      problems,
      notices: [],
      placements: [],
      signature: null,
    }
  })
}

const codedChoice = /^(-?[A-Za-z0-9_.]{1,32})\s*,\s*(.*)$/s
const choiceParts = (text: string) =>
  text
    .split(optionSeparator)
    .map((p) => p.trim())
    .filter((p) => p !== '')

/**
 * The choices of the two option cells, 'code, label | code, label' (REDCap's syntax, so codes
 * survive a round trip through Excel): the Chinese labels, then the English ones matched by code
 * (or by position when written bare). A bare label, as older files have, gets the next code.
 */
function parseOwnChoices(zh: string, en: string): Choice[] {
  const out: Choice[] = []
  for (const p of choiceParts(zh)) {
    const m = codedChoice.exec(p)
    out.push({ code: m?.[1] ?? nextChoiceCode(out), labelZh: (m?.[2] ?? p).trim(), labelEn: '' })
  }
  choiceParts(en).forEach((p, i) => {
    const m = codedChoice.exec(p)
    const code = m?.[1] ?? out[i]?.code ?? nextChoiceCode(out)
    const label = (m?.[2] ?? p).trim()
    const target = out.find((c) => c.code === code)
    if (target) target.labelEn = label
    else out.push({ code, labelZh: '', labelEn: label })
  })
  return out
}

/**
 * The code a cell names: a code, or (as files written before choices had codes do) a label of
 * exactly one choice. Anything else is returned as it is, for the rules to refuse.
 */
export function choiceCodeOf(options: readonly Choice[], value: string): string {
  if (hasChoice(options, value)) return value
  const byLabel = options.filter((c) => c.labelZh === value || c.labelEn === value)
  return byLabel.length === 1 && byLabel[0] ? byLabel[0].code : value
}

function ownDefault(raw: string, type: string | null, options: readonly Choice[]): string | null {
  if (raw === '') return null
  if (type === 'single') return choiceCodeOf(options, raw)
  if (type === 'multiple')
    return raw
      .split(optionSeparator)
      .map((x) => choiceCodeOf(options, x.trim()))
      .join(optionSeparator)
  return raw
}

/** A language no label is written in leaves its cell empty. */
function formatOwnChoices(options: readonly Choice[], lang: 'zh' | 'en'): string {
  const label = (c: Choice) => (lang === 'zh' ? c.labelZh : c.labelEn)
  if (options.every((c) => label(c) === '')) return ''
  return options.map((c) => `${c.code}, ${label(c)}`).join(` ${optionSeparator} `)
}

/** One export row in `ownColumns` order; numbers stay numbers so Excel can compute with them. */
export function ownRow(ind: Indicator, dependentCode: string | null, diseaseName: string | null): XlsxCell[] {
  const byColumn: Record<OwnColumn, XlsxCell> = {
    code: ind.code,
    nameZh: ind.nameZh,
    nameEn: ind.nameEn,
    comment: ind.comment,
    type: ind.type,
    display: ind.display,
    dataType: ind.dataType,
    options: formatOwnChoices(ind.options, 'zh'),
    optionsEn: formatOwnChoices(ind.options, 'en'),
    dependentCode,
    dependentValue: ind.dependentValue,
    unit: ind.unit,
    minimum: ind.minimum,
    maximum: ind.maximum,
    dateFormat: ind.dateFormat,
    defaultValue: ind.defaultValue,
    status: ind.status,
    indexClass: ind.indexClass,
    category: ind.category,
    disease: diseaseName,
  }
  return ownColumns.map((c) => byColumn[c])
}
