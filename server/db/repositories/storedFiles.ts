import type { Q } from '../query.ts'

/**
 * Who names a file of the content-addressed store (server/services/fileStore.ts): an attachment,
 * live or deleted (its trail keeps it), or a user's picture, stored as the file's path.
 */
export async function isStoredFileNamed(db: Q, hash: string, picturePath: string): Promise<boolean> {
  const attachment = await db.selectFrom('attachment').select('id').where('hash', '=', hash).limit(1).executeTakeFirst()
  if (attachment) return true
  const user = await db.selectFrom('app_user').select('id').where('image', '=', picturePath).limit(1).executeTakeFirst()
  return user !== undefined
}

/** Whether some user's picture is this path: the only stored files the picture route serves. */
export async function isUserPicture(db: Q, picturePath: string): Promise<boolean> {
  const user = await db.selectFrom('app_user').select('id').where('image', '=', picturePath).limit(1).executeTakeFirst()
  return user !== undefined
}
