import crypto from 'node:crypto'
import { createWriteStream } from 'node:fs'
import fs from 'node:fs/promises'
import { pipeline } from 'node:stream/promises'
import { Transform } from 'node:stream'
import type { MultipartFile } from '@fastify/multipart'
import type { FastifyReply, FastifyRequest } from 'fastify'
import { fileTypeFromFile } from 'file-type'
import { dataLoadLimits } from '../../../contract/dataLoader.ts'
import type { ServiceContext } from '../context.ts'
import { ServiceError } from '../errors.ts'
import { onlyFile } from '../onlyFile.ts'
import { tmpPath } from './loadFiles.ts'
import type { Container, ReceivedFile } from './model.ts'

/** @fastify/multipart limits for the upload route (registered on its plugin only). */
export const uploadMultipart = {
  limits: { fileSize: dataLoadLimits.maxBytes, files: 1, fields: 10, parts: 11 },
  throwFileSizeLimit: false,
}

/**
 * The one file of the request, field `file`, streamed into a temporary file while its bytes are
 * counted and hashed: past dataLoadLimits.maxBytes it is refused at once and the partial file
 * removed. What it is comes from its bytes (an xlsx is a zip; anything else binary is refused),
 * never from its name. A refusal leaves nothing on disk. Given the reply, a file refused as too
 * large also ends the connection with the answer: the rest of its body is not worth reading.
 */
export function receiveUpload(ctx: ServiceContext, req: FastifyRequest, reply?: FastifyReply): Promise<ReceivedFile> {
  return onlyFile(
    req,
    'dataLoad.noFile',
    (part) => receivePart(ctx, part, reply),
    (file) => fs.rm(file.path, { force: true }),
  )
}

async function receivePart(ctx: ServiceContext, part: MultipartFile, reply?: FastifyReply): Promise<ReceivedFile> {
  const tooLarge = () => new ServiceError('tooLarge', 'dataLoad.tooLarge', [dataLoadLimits.maxBytes / 1024 / 1024])
  const hash = crypto.createHash('sha256')
  let size = 0
  const path = await tmpPath(ctx, 'upload')
  const count = new Transform({
    transform(chunk: Buffer, _enc, done) {
      size += chunk.length
      if (part.file.truncated || size > dataLoadLimits.maxBytes) return done(tooLarge())
      hash.update(chunk)
      done(null, chunk)
    },
  })
  // busboy hands on the chunk it cuts before it marks the file cut, then reads the rest of the body
  // to the part's end: a file that kept up with a slow sender was refused only after its last byte.
  part.file.once('limit', () => count.destroy(tooLarge()))
  try {
    await pipeline(part.file, count, createWriteStream(path))
    // busboy may flag a cut file only after its last chunk.
    if (part.file.truncated) throw tooLarge()
    if (size === 0) throw new ServiceError('badRequest', 'dataLoad.empty')
    const container = await containerOf(path, part.filename)
    return { path, fileName: part.filename.slice(0, 255), size, sha256: hash.digest('hex'), container }
  } catch (err) {
    await fs.rm(path, { force: true })
    if (err instanceof ServiceError && err.kind === 'tooLarge') void reply?.header('connection', 'close')
    throw err
  }
}

/** xlsx by its zip signature, CSV when it holds no byte a text file never has (UTF-16 by its BOM). */
async function containerOf(path: string, fileName: string): Promise<Container> {
  const fd = await fs.open(path)
  let h: Buffer
  try {
    const head = Buffer.alloc(64 * 1024)
    const { bytesRead } = await fd.read(head, 0, head.length, 0)
    h = head.subarray(0, bytesRead)
  } finally {
    await fd.close()
  }
  // Before the sniffing: a UTF-16 text's BOM and letters read as the header of an MPEG audio frame.
  const utf16 = (h[0] === 0xff && h[1] === 0xfe) || (h[0] === 0xfe && h[1] === 0xff)
  if (utf16 && !/\.xlsx$/i.test(fileName)) return 'csv'
  const sniffed = await fileTypeFromFile(path)
  if (sniffed?.ext === 'xlsx' || sniffed?.ext === 'zip') return 'xlsx'
  if (/\.xlsx$/i.test(fileName)) throw new ServiceError('badRequest', 'dataLoad.notXlsx')
  if (sniffed) throw new ServiceError('badRequest', 'dataLoad.badFile', [sniffed.ext])
  if (h.includes(0)) throw new ServiceError('badRequest', 'dataLoad.badFile', ['binary'])
  return 'csv'
}
