import fs from 'node:fs'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { actorOf, withMemberships } from '../../server/services/actor.ts'
import { authenticate } from '../../server/services/auth.ts'
import { startDownload, type DownloadInput } from '../../server/services/dataLoader/download.ts'
import { studyFixture, type StudyFixture } from '../support/studyFixture.ts'

/**
 * downloadData over many pages: a client that stops reading stops the reading of the database (the
 * server holds a page or two, not the file), and every page of the CSV comes out as the database
 * holds it, a value a spreadsheet would run neutralised and quoted where it has to be.
 */

let s: StudyFixture
let baseline = 0
/** Subjects added to the demo's: several pages of every format. */
const extra = 3000
const tricky = '=SUM(A1),"x"\nnext'

beforeAll(async () => {
  s = await studyFixture({ subjects: 4 })
  const db = s.t.db.kysely
  const form = await db
    .selectFrom('project_form as f')
    .innerJoin('template as t', 't.id', 'f.template_id')
    .select(['t.id', 'f.version_id'])
    .where('f.project_id', '=', s.projectId)
    .where('t.name', 'like', '%baseline%')
    .executeTakeFirstOrThrow()
  baseline = form.id
  const text = await db.selectFrom('indicator').select('id').where('code', '=', 'demo_height').executeTakeFirstOrThrow()
  const at = new Date().toISOString()
  for (let start = 0; start < extra; start += 500) {
    const subjects = await db
      .insertInto('subject')
      .values(
        Array.from({ length: 500 }, (_, i) => ({
          project_id: s.projectId,
          queue_id: s.queueIds[0]!,
          center_id: s.centerIds[0]!,
          subject_no: `BIG${String(start + i).padStart(5, '0')}`,
          status: 'enrolled',
          enrolled_at: at,
          created_at: at,
          updated_at: at,
        })),
      )
      .returning('id')
      .execute()
    await db
      .insertInto('form_record')
      .values(
        subjects.map((x, i) => ({
          project_id: s.projectId,
          subject_id: x.id,
          center_id: s.centerIds[0]!,
          queue_id: s.queueIds[0]!,
          template_id: baseline,
          version_id: form.version_id,
          slot: '',
          data: JSON.stringify({ [String(text.id)]: (start + i) % 7 === 0 ? tricky : `note ${start + i}` }),
          status: 'saved',
          rev: 1,
          created_at: at,
          updated_at: at,
        })),
      )
      .execute()
  }
}, 120_000)
afterAll(() => s.close())

async function download(format: DownloadInput['format']) {
  const ctx = s.t.app.ctx
  const actor = await withMemberships(ctx.db, await actorOf(ctx.db, await authenticate(ctx, s.tokens.demo!)))
  return startDownload(
    ctx,
    actor,
    { userId: actor.user.id, username: 'demo', ip: '' },
    { studyId: s.projectId, format, templateIds: [baseline], lang: 'en' },
  )
}

async function all(format: DownloadInput['format']): Promise<Buffer> {
  const parts: Buffer[] = []
  for await (const part of (await download(format)).body) parts.push(part as Buffer)
  return Buffer.concat(parts)
}

describe('downloadData over many pages', () => {
  for (const format of ['csv', 'xlsx', 'odm'] as const) {
    it(`reads no further than a slow client takes (${format})`, async () => {
      const whole = (await all(format)).length
      const tmp = path.join(s.t.app.ctx.dataDir, 'loads', 'tmp')
      const left = () => (fs.existsSync(tmp) ? fs.readdirSync(tmp) : [])
      // The whole download's temporary file goes once its stream closes, which a busy machine may not have reached yet.
      await expect.poll(left, { timeout: 10_000 }).toEqual([])
      const file = await download(format)
      const reader = file.body[Symbol.asyncIterator]()
      await reader.next()
      // Time enough for a producer that ignored the reader to write it all.
      await new Promise((r) => setTimeout(r, 500))
      const mine = left()
      expect(mine).toHaveLength(1)
      // Every byte sent is also in the temporary file as it goes: it holds what was read so far.
      const written = fs.statSync(path.join(tmp, mine[0]!)).size
      expect(written).toBeGreaterThan(0)
      expect(written).toBeLessThan(whole / 3)
      await reader.return?.()
      file.body.destroy()
    })
  }

  it('writes every page of the CSV, text a spreadsheet would run neutralised and quoted', async () => {
    const text = (await all('csv')).toString('utf8')
    const quoted = `"'${tricky.replace(/"/g, '""')}"`
    const big = text.split('\r\nBIG').slice(1)
    expect(big).toHaveLength(extra)
    big.forEach((line, i) => {
      expect(line.startsWith(String(i).padStart(5, '0'))).toBe(true)
      expect(line.includes(i % 7 === 0 ? quoted : `,note ${i}`)).toBe(true)
    })
  })
})
