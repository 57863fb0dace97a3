import { describe, expect, it } from 'vitest'
import { contentDisposition } from '../../server/routes/contentDisposition.ts'

/** The RFC 5987 name a browser reads from `filename*`. */
const utf8Name = (header: string) => decodeURIComponent(header.split("filename*=UTF-8''")[1]!)

describe('contentDisposition', () => {
  it('names an ASCII file the same in both forms', () => {
    expect(contentDisposition('audit-log-20261128-050000.csv')).toBe(
      `attachment; filename="audit-log-20261128-050000.csv"; filename*=UTF-8''audit-log-20261128-050000.csv`,
    )
  })

  it('keeps a Chinese name whole in filename*, with an ASCII stand-in for old clients', () => {
    const header = contentDisposition('肺癌研究-数据-20261128.xlsx')
    expect(header).toMatch(/^attachment; filename="[\x20-\x7e]+"; filename\*=UTF-8''[A-Za-z0-9%._-]+$/)
    expect(header).toContain('filename="____-__-20261128.xlsx"')
    expect(utf8Name(header)).toBe('肺癌研究-数据-20261128.xlsx')
  })

  it('lets no quote, backslash or sign outside RFC 5987 attr-char break the header', () => {
    const header = contentDisposition(`a "b" \\ c's (1)*.csv`)
    expect(header).toContain(`filename="a _b_ _ c's (1)*.csv"`)
    expect(header.split("filename*=UTF-8''")[1]).not.toMatch(/['()* "\\]/)
    expect(utf8Name(header)).toBe(`a "b" \\ c's (1)*.csv`)
  })

  it('shows a file inline when asked', () => {
    expect(contentDisposition('扫描.png', 'inline')).toMatch(/^inline; filename="__\.png"; filename\*=UTF-8''%E6%89%AB%E6%8F%8F\.png$/)
  })
})
