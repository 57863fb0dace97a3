import { describe, expect, it } from 'vitest'
import type { VersionField } from '../../../contract/crf.ts'
import { cellToValue } from '../../../server/services/dataLoader/layout.ts'
import { halfWidth } from '../../../contract/halfWidth.ts'
import { versionField } from '../../support/versionField.ts'

/** Cells typed with a Chinese input method left in full-width mode read as what they mean. */

const field = (over: Partial<VersionField>) => versionField({ type: 'blank', display: 'input', ...over })

describe('full-width cells', () => {
  it('halfWidth maps the full-width ASCII block and the ideographic space, nothing else', () => {
    expect(halfWidth('５７．５')).toBe('57.5')
    expect(halfWidth('－３')).toBe('-3')
    expect(halfWidth('２０２４／１／５\u3000９：３０')).toBe('2024/1/5 9:30')
    expect(halfWidth('男')).toBe('男')
    expect(halfWidth('plain 57')).toBe('plain 57')
  })

  it('reads numbers, dates and choice codes; free text keeps what was typed', () => {
    expect(cellToValue(field({ dataType: 'decimal' }), ' １６０．６ ')).toBe('160.6')
    expect(cellToValue(field({ type: 'date', dateFormat: 'YYYY-MM-DD' }), '２０２４／１／５')).toBe('2024-01-05')
    // The spelling data entry reads too: the format's digits in a run.
    expect(cellToValue(field({ type: 'date', dateFormat: 'YYYY-MM-DD' }), '２０２４０１０５')).toBe('2024-01-05')
    const single = field({
      type: 'single',
      display: 'radio',
      options: [
        { code: '1', labelZh: '是（确诊）', labelEn: 'Yes' },
        { code: '2', labelZh: '否', labelEn: 'No' },
      ],
    })
    expect(cellToValue(single, '２')).toBe('2')
    // A label with full-width brackets is matched as written.
    expect(cellToValue(single, '是（确诊）')).toBe('1')
    const multi = field({ type: 'multiple', display: 'checkbox', options: single.options })
    expect(cellToValue(multi, '１｜否')).toEqual(['1', '2'])
    expect(cellToValue(field({}), '５７号床')).toBe('５７号床')
  })
})
