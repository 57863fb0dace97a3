import { fileTypeFromBuffer } from 'file-type'
import { userPaths } from '../../contract/users.ts'
import { isUserPicture } from '../db/repositories/storedFiles.ts'
import { findUserById, updateUserRow } from '../db/repositories/users.ts'
import { audit } from './audit.ts'
import type { ServiceContext } from './context.ts'
import { ServiceError } from './errors.ts'
import { readStoredFile, withStoredFile } from './fileStore.ts'
import type { Admin } from './userRules.ts'

/**
 * The picture field of SPEC §2 for a user's avatar (type 3): one image, jpeg/jpg/png/bmp by
 * CONTENT (§5), whose declared extension and type must agree with what the bytes are, so a
 * renamed file is refused too. The size limit (§9, 5 MB) is enforced while the upload streams
 * (server/routes/users/index.ts); nothing is written before every check passed.
 */

/** The content types accepted, and the file name extensions and declared types each may carry. */
const accepted: Record<string, { extensions: readonly string[] }> = {
  'image/jpeg': { extensions: ['jpg', 'jpeg'] },
  'image/png': { extensions: ['png'] },
  'image/bmp': { extensions: ['bmp'] },
}

const notImage = () => new ServiceError('badRequest', 'picture.notImage')

/** The image's content type, or a 400 with the SPEC message. */
/**
 * The header after the magic bytes is an image's too: file-type reads only the first two to four
 * bytes, so `BM` or the PNG signature before any text passed as a picture.
 */
function headerHolds(mime: string, data: Buffer): boolean {
  if (mime === 'image/png') return data.length >= 33 && data.toString('latin1', 12, 16) === 'IHDR' && data.readUInt32BE(8) === 13
  if (mime === 'image/bmp') {
    if (data.length < 26) return false
    const dib = data.readUInt32LE(14)
    const offset = data.readUInt32LE(10)
    return [12, 40, 52, 56, 108, 124].includes(dib) && offset >= 14 + dib && offset <= data.length
  }
  return true
}

export async function checkImage(data: Buffer, filename: string, declaredType: string): Promise<string> {
  const found = await fileTypeFromBuffer(data)
  const kind = found ? accepted[found.mime] : undefined
  if (!found || !kind) throw notImage()
  const extension = filename.includes('.') ? filename.slice(filename.lastIndexOf('.') + 1).toLowerCase() : ''
  if (!kind.extensions.includes(extension)) throw notImage()
  if (!headerHolds(found.mime, data)) throw notImage()
  // Browsers send the type they guess from the name; a generic one says nothing either way.
  const declared = declaredType.toLowerCase()
  if (
    declared !== '' &&
    declared !== 'application/octet-stream' &&
    declared !== found.mime &&
    !(declared === 'image/jpg' && found.mime === 'image/jpeg')
  ) {
    throw notImage()
  }
  return found.mime
}

/**
 * The person exists and is not disabled (SPEC §2). Whose avatar the caller may change (their own,
 * or anyone's with `user.edit`) the policy has decided already, on the objectId the call names.
 */
async function mayChange(ctx: ServiceContext, userId: number): Promise<void> {
  const user = await findUserById(ctx.db, userId)
  if (!user) throw new ServiceError('notFound', 'user.notFound', [userId])
  if (user.status !== 1) throw new ServiceError('conflict', 'picture.objectDisabled')
}

export async function uploadAvatar(
  ctx: ServiceContext,
  admin: Admin,
  userId: number,
  file: { data: Buffer; filename: string; mimetype: string },
): Promise<{ path: string }> {
  await mayChange(ctx, userId)
  await checkImage(file.data, file.filename, file.mimetype)
  const now = ctx.now()
  return withStoredFile(ctx, file.data, (hash) =>
    ctx.db.transaction().execute(async (trx) => {
      const path = userPaths.file(hash)
      await updateUserRow(trx, userId, { image: path, updated_at: now.toISOString() })
      await audit(trx, admin.who, 'user.avatar.upload', 'ok', now, { sha256: hash, bytes: file.data.length }, { type: 'user', id: userId })
      return { path }
    }),
  )
}

/** Clears the field; the stored file stays, as other records or the audit trail may name it. */
export async function deleteAvatar(ctx: ServiceContext, admin: Admin, userId: number): Promise<void> {
  await mayChange(ctx, userId)
  const now = ctx.now()
  await ctx.db.transaction().execute(async (trx) => {
    await updateUserRow(trx, userId, { image: '', updated_at: now.toISOString() })
    await audit(trx, admin.who, 'user.avatar.delete', 'ok', now, {}, { type: 'user', id: userId })
  })
}

/**
 * A user's stored picture with the type its content shows (only checked images are ever stored).
 * The store also keeps the pictures of research objects (attachments), which are served only
 * through their project, inside the caller's centers and queues: a hash that is no user's picture
 * is answered as unknown, whoever asks.
 */
export async function readPicture(ctx: ServiceContext, hash: string): Promise<{ data: Buffer; type: string }> {
  if (!(await isUserPicture(ctx.db, userPaths.file(hash)))) throw new ServiceError('notFound', 'file.notFound')
  const data = await readStoredFile(ctx, hash)
  if (!data) throw new ServiceError('notFound', 'file.notFound')
  return { data, type: (await fileTypeFromBuffer(data))?.mime ?? 'application/octet-stream' }
}
