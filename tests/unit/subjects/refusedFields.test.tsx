import { afterEach, describe, expect, it } from 'vitest'
import { renderToStaticMarkup } from 'react-dom/server'
import type { FormData, FormDefinition, FormErrors } from '../../../contract/formValues.ts'
import { setLang } from '../../../src/i18n/index.ts'
import { stillRefused } from '../../../src/features/subjects/detail/refusedFields.ts'
import { FormRenderer } from '../../../src/ui/FormRenderer.tsx'
import { ind } from '../formRenderer/support.ts'

const age = ind({ id: 201, type: 'blank', display: 'input', dataType: 'integer', nameZh: '年龄', nameEn: 'Age' })
const drug = ind({ id: 202, type: 'blank', display: 'input', nameZh: '药物', nameEn: 'Drug' })
const definition: FormDefinition = {
  indicators: [age, drug],
  layout: {
    sections: [
      { key: 'main', title: 'Main', repeating: false, items: [{ indicatorId: 201, required: false }] },
      { key: 'meds', title: 'Meds', repeating: true, items: [{ indicatorId: 202, required: false }] },
    ],
  },
}
const data: FormData = { values: { '201': '30' }, rows: { meds: [{ '202': 'a' }, { '202': 'b' }] } }
// What the server answered for a refused save (contract/studyData.ts saveInvalid), by fieldPath.
const refused: FormErrors = {
  'f:201': { key: 'validatorMsg.integer' },
  'r:meds:1:202': { key: 'validatorMsg.pleaseInput', params: ['Drug'] },
}

afterEach(() => setLang('zh'))

describe('fields the server refused', () => {
  it('are marked on the fields themselves, in the reader’s language', () => {
    setLang('en')
    const html = renderToStaticMarkup(<FormRenderer definition={definition} value={data} onChange={() => {}} refused={refused} />)
    const invalid = html.match(/data-invalid="true"/g) ?? []
    expect(invalid).toHaveLength(2)
    expect(html).toContain('Please enter an integer')
    expect(html).toContain('Please input Drug')
  })

  it('keep their message until their own value changes, or rows come or go in their sub form', () => {
    expect(stillRefused(refused, data, { ...data, values: { '201': '30' } })).toBe(refused)
    expect(Object.keys(stillRefused(refused, data, { ...data, values: { '201': '31' } }))).toEqual(['r:meds:1:202'])
    const rowEdited = { ...data, rows: { meds: [{ '202': 'a' }, { '202': 'c' }] } }
    expect(Object.keys(stillRefused(refused, data, rowEdited))).toEqual(['f:201'])
    const rowRemoved = { ...data, rows: { meds: [{ '202': 'b' }] } }
    expect(Object.keys(stillRefused(refused, data, rowRemoved))).toEqual(['f:201'])
  })
})

describe('fields locked for a member who may not change saved data', () => {
  it('are shown read-only, and a saved row has no remove button; the rest stays open', () => {
    setLang('en')
    const locked = (path: string) => path === 'f:201' || path === 'r:meds:0' || path === 'r:meds:0:202'
    const html = renderToStaticMarkup(<FormRenderer definition={definition} value={data} onChange={() => {}} locked={locked} />)
    const inputs = [...html.matchAll(/<input[^>]*>/g)].map((m) => m[0])
    expect(inputs).toHaveLength(3)
    expect(inputs.filter((i) => i.includes('readOnly') || i.includes('readonly'))).toHaveLength(2)
    expect(html.match(/aria-label="Remove row \d+"/g)).toEqual(['aria-label="Remove row 2"'])
  })
})
