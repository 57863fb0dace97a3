import { createDeflateRaw, crc32, deflateRawSync } from 'node:zlib'

/** One zip entry, already deflated, with the CRC and size of what it inflates to. */
export interface ZipPart {
  name: string
  deflated: Buffer
  crc: number
  size: number
}

export function deflated(name: string, text: string): ZipPart {
  const data = Buffer.from(text)
  return { name, deflated: deflateRawSync(data), crc: crc32(data), size: data.length }
}

/** An entry deflated as it is generated, so a bomb of gigabytes never sits in the test's memory. */
export async function deflatedStream(name: string, chunks: Iterable<Buffer>): Promise<ZipPart> {
  const deflate = createDeflateRaw({ level: 9 })
  const out: Buffer[] = []
  deflate.on('data', (c: Buffer) => out.push(c))
  const done = new Promise((resolve, reject) => deflate.on('end', resolve).on('error', reject))
  let crc = 0
  let size = 0
  for (const c of chunks) {
    crc = crc32(c, crc)
    size += c.length
    if (!deflate.write(c)) await new Promise((r) => deflate.once('drain', r))
  }
  deflate.end()
  await done
  return { name, deflated: Buffer.concat(out), crc, size: size >>> 0 }
}

/** A zip of deflated entries, in the given order (sizes past 4 GB wrap, as a bomb's may). */
export function zip(parts: readonly ZipPart[]): Buffer {
  const locals: Buffer[] = []
  const centrals: Buffer[] = []
  let offset = 0
  for (const p of parts) {
    const name = Buffer.from(p.name)
    const local = Buffer.alloc(30)
    local.writeUInt32LE(0x04034b50, 0)
    local.writeUInt16LE(20, 4)
    local.writeUInt16LE(8, 8)
    local.writeUInt32LE(p.crc >>> 0, 14)
    local.writeUInt32LE(p.deflated.length, 18)
    local.writeUInt32LE(p.size >>> 0, 22)
    local.writeUInt16LE(name.length, 26)
    const central = Buffer.alloc(46)
    central.writeUInt32LE(0x02014b50, 0)
    central.writeUInt16LE(20, 4)
    central.writeUInt16LE(20, 6)
    central.writeUInt16LE(8, 10)
    central.writeUInt32LE(p.crc >>> 0, 16)
    central.writeUInt32LE(p.deflated.length, 20)
    central.writeUInt32LE(p.size >>> 0, 24)
    central.writeUInt16LE(name.length, 28)
    central.writeUInt32LE(offset, 42)
    locals.push(local, name, p.deflated)
    centrals.push(central, name)
    offset += 30 + name.length + p.deflated.length
  }
  const cd = Buffer.concat(centrals)
  const end = Buffer.alloc(22)
  end.writeUInt32LE(0x06054b50, 0)
  end.writeUInt16LE(parts.length, 8)
  end.writeUInt16LE(parts.length, 10)
  end.writeUInt32LE(cd.length, 12)
  end.writeUInt32LE(offset, 16)
  return Buffer.concat([...locals, cd, end])
}

const workbook = `<?xml version="1.0" encoding="UTF-8"?><workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="Sheet1" sheetId="1" r:id="rId1"/></sheets></workbook>`
const rels = `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/></Relationships>`
const types = `<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/></Types>`

/**
 * A workbook whose one sheet is `rows` rows of `cols` (at most 26) inline-string cells of `cellChars` letters:
 * deflate squeezes repeated text about a thousandfold, so a few MB unpack to gigabytes.
 */
export async function xlsxBomb(rows: number, cols: number, cellChars: number): Promise<Buffer> {
  const cell = 'x'.repeat(cellChars)
  function* sheet(): Generator<Buffer> {
    yield Buffer.from(
      '<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>',
    )
    for (let r = 1; r <= rows; r++) {
      let xml = `<row r="${r}">`
      for (let c = 0; c < cols; c++) xml += `<c r="${String.fromCharCode(65 + c)}${r}" t="inlineStr"><is><t>${cell}</t></is></c>`
      yield Buffer.from(xml + '</row>')
    }
    yield Buffer.from('</sheetData></worksheet>')
  }
  return zip([
    deflated('[Content_Types].xml', types),
    deflated('xl/workbook.xml', workbook),
    deflated('xl/_rels/workbook.xml.rels', rels),
    await deflatedStream('xl/worksheets/sheet1.xml', sheet()),
  ])
}
