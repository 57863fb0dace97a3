import { deletePicture as endpoint } from '../../../../contract/userEndpoints.ts'
import { pictureTypes } from '../../../../contract/users.ts'
import { call } from '../../../api/call.ts'

/** The picture field's delete (SPEC §2): type 3 and objectId. */
export function deletePicture(userId: number): Promise<void> {
  return call(endpoint, { type: pictureTypes.userAvatar, objectId: userId })
}
