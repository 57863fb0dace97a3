import type { MultipartFile } from '@fastify/multipart'
import type { FastifyRequest } from 'fastify'
import { ServiceError } from '../services/errors.ts'
import { onlyFile } from '../services/onlyFile.ts'

/** What a picture upload yields: the bytes, and the name and type the browser declared. */
export interface UploadedPicture {
  data: Buffer
  filename: string
  mimetype: string
}

/** @fastify/multipart limits for a route that takes one picture (register them on its plugin only). */
export const pictureMultipart = (maxBytes: number) => ({
  limits: { fileSize: maxBytes, files: 1, fields: 5, parts: 6 },
  throwFileSizeLimit: false,
})

/**
 * The one file of the request, field `file`, at most `maxBytes` counted while it streams (busboy
 * flags a cut file `truncated`, sometimes only after its last chunk). It is held in memory until
 * every check passed, so a refused upload writes nothing. The SPEC picture messages.
 */
export function readPictureUpload(req: FastifyRequest, maxBytes: number): Promise<UploadedPicture> {
  return onlyFile(req, 'picture.noFile', (part) => readPicture(part, maxBytes))
}

async function readPicture(part: MultipartFile, maxBytes: number): Promise<UploadedPicture> {
  const tooLarge = () => new ServiceError('tooLarge', 'picture.tooLarge')
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of part.file as AsyncIterable<Buffer>) {
    size += chunk.length
    if (part.file.truncated || size > maxBytes) throw tooLarge()
    chunks.push(chunk)
  }
  if (part.file.truncated) throw tooLarge()
  return { data: Buffer.concat(chunks, size), filename: part.filename, mimetype: part.mimetype }
}
