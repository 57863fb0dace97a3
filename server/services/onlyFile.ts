import type { MultipartFile } from '@fastify/multipart'
import type { FastifyRequest } from 'fastify'
import type { MessageKey } from '../i18n/messages.ts'
import { ServiceError } from './errors.ts'

/**
 * The request's one file, form field `file`, handed whole to `read`; what `read` made is given
 * back only when no other file follows it in the body. A second file used to be dropped unread
 * while the first was loaded: the sender is told instead, and `discard` undoes what `read` made.
 */
export async function onlyFile<T>(
  req: FastifyRequest,
  noFile: MessageKey,
  read: (part: MultipartFile) => Promise<T>,
  discard: (made: T) => Promise<void> = async () => {},
): Promise<T> {
  if (!req.isMultipart()) throw new ServiceError('badRequest', noFile)
  const files = req.files()
  const first = await files.next()
  const part = first.done ? undefined : first.value
  if (!part || part.fieldname !== 'file') {
    part?.file.resume()
    throw new ServiceError('badRequest', noFile)
  }
  const made = await read(part)
  let another: boolean
  try {
    const next = await files.next()
    another = !next.done
    if (!next.done) next.value.file.resume()
  } catch (err) {
    // Past the route's file limit the multipart reader refuses the part itself.
    if ((err as { code?: unknown }).code !== 'FST_FILES_LIMIT') {
      await discard(made)
      throw err
    }
    another = true
  }
  if (another) {
    await discard(made)
    throw new ServiceError('badRequest', 'upload.oneFile')
  }
  return made
}
