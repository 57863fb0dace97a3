import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import ExcelJS from 'exceljs'
import iconv from 'iconv-lite'
import { afterAll, describe, expect, it, vi } from 'vitest'
import type { Container, ReceivedFile, SheetBatch } from '../../../server/services/dataLoader/model.ts'
import { maxReaders, readUpload, runningReaders, type ReadOptions } from '../../../server/services/dataLoader/readUpload.ts'
import { ServiceError } from '../../../server/services/errors.ts'
import { deflated, xlsxBomb, zip } from '../../support/zip.ts'

// Each read starts a worker thread that loads its TypeScript through tsx: seconds on a busy machine.
vi.setConfig({ testTimeout: 60_000 })

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'read-upload-'))
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }))

let n = 0
function fileOf(data: Buffer | string, container: Container): ReceivedFile {
  const p = path.join(dir, `f${++n}.${container}`)
  fs.writeFileSync(p, data)
  return { path: p, fileName: path.basename(p), size: fs.statSync(p).size, sha256: '', container }
}

async function xlsxOf(sheets: Record<string, ExcelJS.CellValue[][]>, edit?: (wb: ExcelJS.Workbook) => void): Promise<ReceivedFile> {
  const wb = new ExcelJS.Workbook()
  for (const [name, rows] of Object.entries(sheets)) {
    const ws = wb.addWorksheet(name)
    rows.forEach((r, i) => {
      if (r.length) ws.getRow(i + 1).values = r
    })
  }
  edit?.(wb)
  return fileOf(Buffer.from(await wb.xlsx.writeBuffer()), 'xlsx')
}

async function all(file: ReceivedFile, opts?: ReadOptions): Promise<SheetBatch[]> {
  const out: SheetBatch[] = []
  for await (const b of readUpload(file, opts)) out.push(b)
  return out
}

async function refusal(file: ReceivedFile, opts?: ReadOptions): Promise<ServiceError> {
  try {
    await all(file, opts)
  } catch (err) {
    expect(err).toBeInstanceOf(ServiceError)
    return err as ServiceError
  }
  throw new Error('not refused')
}

/** Sheet name → header and rows, batches joined. */
function bySheet(batches: SheetBatch[]) {
  const out = new Map<string, { header: string[]; rows: { row: number; cells: string[] }[] }>()
  for (const b of batches) {
    if (b.header) out.set(b.sheet, { header: b.header, rows: [] })
    out.get(b.sheet)!.rows.push(...b.rows)
  }
  return out
}

const csvOf = (lines: number, fields = 20) => {
  let s = 'subject_id,center,queue,' + Array.from({ length: fields }, (_, i) => `f${i}`).join(',') + '\r\n'
  for (let r = 0; r < lines; r++) s += `S${r},DBJ,A,` + Array.from({ length: fields }, (_, i) => `${r * fields + i}`).join(',') + '\r\n'
  return s
}

afterAll(() => expect(runningReaders()).toBe(0))

describe('readUpload: xlsx', () => {
  it('reads every sheet in workbook order, _layout first, with names, headers and row numbers', async () => {
    const file = await xlsxOf(
      {
        Baseline: [
          ['subject_id', 'center', 'queue', 'demo_age', 'demo_diagnosed'],
          ['Subject ID', 'Center', 'Queue', 'Age', 'Diagnosed'],
          ['S1', 'DBJ', 'A', 42, new Date(Date.UTC(2024, 2, 5))],
          [],
          ['S2', 'DSH', 'B', 55.5, "'=cmd"],
        ],
        'History past': [
          ['subject_id', 'row', 'demo_condition'],
          ['S1', 1, '高血压'],
        ],
        Empty: [],
        _layout: [
          ['sheet', 'templateId', 'versionId', 'section'],
          ['Baseline', 1, 2, ''],
        ],
      },
      (wb) => {
        wb.getWorksheet('_layout')!.state = 'veryHidden'
        wb.getWorksheet('Baseline')!.getCell('E3').numFmt = 'yyyy-mm-dd'
      },
    )
    const batches = await all(file)
    expect([...new Set(batches.map((b) => b.sheet))]).toEqual(['_layout', 'Baseline', 'History past'])
    const sheets = bySheet(batches)
    // A trailing empty cell is not in the file: rows may be shorter than the header.
    expect(sheets.get('_layout')!.rows).toEqual([{ row: 2, cells: ['Baseline', '1', '2'] }])
    const base = sheets.get('Baseline')!
    expect(base.header).toEqual(['subject_id', 'center', 'queue', 'demo_age', 'demo_diagnosed'])
    expect(base.rows.map((r) => r.row)).toEqual([2, 3, 5])
    expect(base.rows[1]!.cells).toEqual(['S1', 'DBJ', 'A', '42', '2024-03-05'])
    // The ' our export puts before runnable text is taken off.
    expect(base.rows[2]!.cells).toEqual(['S2', 'DSH', 'B', '55.5', '=cmd'])
    expect(sheets.get('History past')!.rows).toEqual([{ row: 2, cells: ['S1', '1', '高血压'] }])
    expect(runningReaders()).toBe(0)
  })

  it('reads a date cell by its format: midnight is a date-time where the format shows the time', async () => {
    const midnight = new Date(Date.UTC(2024, 0, 5))
    const formats = ['yyyy-mm-dd', 'yyyy-mm-dd hh:mm', '[$-804]yyyy/m/d h:mm;@', '[Red]yyyy-mm-dd', 'yyyy"h"mm', 'h:mm:ss']
    const file = await xlsxOf(
      {
        S: [
          formats.map((_, i) => `c${i}`),
          [midnight, midnight, midnight, midnight, midnight, new Date(Date.UTC(1899, 11, 30))],
          [new Date(Date.UTC(2024, 0, 5, 9, 30))],
        ],
      },
      (wb) =>
        formats.forEach(
          (f, i) =>
            (wb
              .getWorksheet('S')!
              .getRow(2)
              .getCell(i + 1).numFmt = f),
        ),
    )
    const rows = bySheet(await all(file)).get('S')!.rows
    expect(rows[0]!.cells).toEqual(['2024-01-05', '2024-01-05 00:00', '2024-01-05 00:00', '2024-01-05', '2024-01-05', '00:00'])
    // A time of day shows whatever the format says.
    expect(rows[1]!.cells).toEqual(['2024-01-05 09:30'])
  })

  it('refuses a sheet with a formula, naming the cell', async () => {
    const file = await xlsxOf({
      Sheet1: [
        ['a', 'b', 'c'],
        [1, 2, 3],
        [1, 2, 3],
        [1, 2, 3],
        [1, 2, { formula: 'A5+B5', result: 3 }],
      ],
    })
    const err = await refusal(file)
    expect(err.key).toBe('dataLoad.formula')
    expect(err.describe('en')).toBe('Sheet1!C5 holds a formula; upload values only (copy, then Paste Special → Values)')
    const many = await xlsxOf({
      'My data': [['a', 'b'], ...Array.from({ length: 20 }, (_, i) => [i, { formula: `A${i + 2}*2`, result: i * 2 }])],
    })
    const err2 = await refusal(many)
    expect(err2.key).toBe('dataLoad.formulas')
    expect(err2.params[0]).toBe("'My data'!B2, 'My data'!B3, 'My data'!B4, 'My data'!B5, 'My data'!B6")
  })

  it('refuses a zip bomb after the inflate budget, in a worker of bounded heap', async () => {
    // ~130 MB of XML squeezed into a few hundred kB; the budget is 32 MB, the worker's heap 128 MB.
    const bomb = fileOf(await xlsxBomb(5_000, 26, 1_000), 'xlsx')
    expect(bomb.size).toBeLessThan(2_000_000)
    const err = await refusal(bomb, { limits: { maxInflatedBytes: 32 * 1024 * 1024 }, heapMb: 128 })
    expect(err.key).toBe('dataLoad.inflatedTooLarge')
    // One giant cell is stopped before the XML parser holds it, as a file that expands too far.
    const giant = fileOf(await xlsxBomb(1, 1, 5_000_000), 'xlsx')
    const text = await refusal(giant, { heapMb: 128 })
    expect(text.key).toBe('dataLoad.inflatedTextTooLong')
    expect(text.describe('en')).toMatch(/^The xlsx expands past the allowed size once unpacked/)
    // Empty rows by the million pass the inflate budget (a few bytes each) but not the count of row elements.
    const empty = await refusal(fileOf(await xlsxBomb(3_000, 0, 0), 'xlsx'), { limits: { maxRowElements: 2_000 } })
    expect(empty.describe('en')).toBe(
      'The workbook holds more than 2000 rows, empty ones included: delete the extra empty rows and upload again',
    )
    expect(empty.describe('zh')).toBe('工作簿的行数（含空行）超过 2000：请删除多余的空行后再上传')
  })

  it('refuses too many rows, too many columns, a too long cell', async () => {
    const rows = await xlsxOf({ S: [['a'], ...Array.from({ length: 12 }, (_, i) => [i])] })
    expect((await refusal(rows, { limits: { maxRows: 10 } })).key).toBe('dataLoad.tooManyRows')
    const cols = await xlsxOf({ S: [['a', 'b', 'c', 'd', 'e', 'f']] })
    const c = await refusal(cols, { limits: { maxColumns: 5 } })
    expect(c.describe('en')).toBe('Sheet "S" has more than 5 columns')
    const long = await xlsxOf({
      S: [
        ['a', 'b'],
        ['x', 'y'],
        ['x', 'y'.repeat(11)],
      ],
    })
    expect((await refusal(long, { limits: { maxCellChars: 10 } })).describe('en')).toBe('Cell S!B3 holds more than 10 characters')
  })

  it('refuses a zip that is no workbook, and an empty workbook', async () => {
    const notBook = fileOf(zip([deflated('readme.txt', 'hello')]), 'xlsx')
    expect((await refusal(notBook)).key).toBe('dataLoad.notXlsx')
    expect((await refusal(fileOf('not a zip at all', 'xlsx'))).key).toBe('dataLoad.notXlsx')
    expect((await refusal(await xlsxOf({ S: [] }))).key).toBe('dataLoad.empty')
  })
})

describe('readUpload: CSV', () => {
  it('reads GBK and UTF-8 with a BOM; rows numbered as a spreadsheet shows them', async () => {
    const text = 'subject_id,center,备注\r\n研究对象,中心,说明\r\nS1,DBJ,"两行\r\n文字"\r\n\r\nS2,DSH,\'=1+2\r\n'
    for (const file of [fileOf(iconv.encode(text, 'gbk'), 'csv'), fileOf('\uFEFF' + text, 'csv')]) {
      const [only, ...rest] = [...bySheet(await all(file)).entries()]
      expect(rest).toEqual([])
      expect(only![0]).toBe('')
      expect(only![1].header).toEqual(['subject_id', 'center', '备注'])
      expect(only![1].rows).toEqual([
        { row: 2, cells: ['研究对象', '中心', '说明'] },
        { row: 3, cells: ['S1', 'DBJ', '两行\r\n文字'] },
        { row: 5, cells: ['S2', 'DSH', '=1+2'] },
      ])
    }
  })

  it('refuses bad bytes, too many rows, a long cell, a malformed file', async () => {
    expect((await refusal(fileOf(Buffer.from([0x61, 0x2c, 0x62, 0x0a, 0xff, 0xfe, 0xfd, 0x0a]), 'csv'))).key).toBe('import.badEncoding')
    expect((await refusal(fileOf(csvOf(12), 'csv'), { limits: { maxRows: 10 } })).key).toBe('dataLoad.tooManyRows')
    expect((await refusal(fileOf('a,b\r\nx,' + 'y'.repeat(11), 'csv'), { limits: { maxCellChars: 10 } })).describe('en')).toBe(
      'Cell B2 holds more than 10 characters',
    )
    expect((await refusal(fileOf('', 'csv'))).key).toBe('dataLoad.empty')
    const open = await refusal(fileOf('a,b\r\nx,y\r\n"z,w\r\n', 'csv'))
    expect([open.describe('en'), open.describe('zh')]).toEqual([
      'The CSV is malformed: a quote opened in row 3 is never closed (a cell starts with a quote and has no closing one)',
      'CSV 格式错误：第 3 行的引号没有闭合（一个以引号开头的单元格没有结束引号）',
    ])
  })
})

describe('readUpload: the worker', () => {
  const large = () => fileOf(csvOf(100_000), 'csv')

  it('ends the worker when the consumer stops early or throws', async () => {
    const file = large()
    for await (const b of readUpload(file, { batchRows: 1000 })) {
      expect(b.rows).toHaveLength(1000)
      expect(runningReaders()).toBe(1)
      break
    }
    expect(runningReaders()).toBe(0)
    await expect(
      (async () => {
        for await (const _ of readUpload(file)) throw new Error('consumer failed')
      })(),
    ).rejects.toThrow('consumer failed')
    expect(runningReaders()).toBe(0)
  })

  it('runs at most maxReaders at once: a further read waits until one ends', async () => {
    const reads = Array.from({ length: maxReaders + 1 }, () => readUpload(large(), { batchRows: 1000 }))
    const first = await Promise.all(reads.slice(0, maxReaders).map((r) => r.next()))
    expect(first.every((b) => !b.done)).toBe(true)
    let lastStarted = false
    const last = reads[maxReaders]!.next().then((b) => {
      lastStarted = true
      return b
    })
    await new Promise((r) => setTimeout(r, 500))
    expect([runningReaders(), lastStarted]).toEqual([maxReaders, false])
    await reads[0]!.return(undefined)
    expect((await last).done).toBe(false)
    expect(runningReaders()).toBe(maxReaders)
    for (const r of reads.slice(1)) await r.return(undefined)
    expect(runningReaders()).toBe(0)
  })

  it('pipelines: the first batch comes while the file is still parsed, and the worker waits for a slow consumer', async () => {
    const file = large()
    let rows = 0
    let batches = 0
    for await (const b of readUpload(file, { batchRows: 1000, inFlight: 3 })) {
      if (batches++ === 0) {
        // Unheld, the worker parses 100,000 rows well within this; held back by the
        // acknowledgements, it is still there with most of the file to go.
        await new Promise((r) => setTimeout(r, 1500))
        expect(runningReaders()).toBe(1)
      }
      rows += b.rows.length
    }
    expect(rows).toBe(100_000)
    expect(batches).toBe(100)
    expect(runningReaders()).toBe(0)
  })
})
