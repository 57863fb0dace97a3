import type { VersionField } from '../../../contract/crf.ts'
import type { Actor } from '../actor.ts'
import { splitComment } from '../dictionaryExchange/redcap.ts'
import { membershipOf } from '../policy.ts'

/**
 * Identifier fields (personal data, REDCap's "Identifier?" column): a field whose comment keeps
 * the REDCap definition `@redcap {"identifier":"y",…}` (services/dictionaryExchange/redcap.ts).
 * A download leaves them out unless the caller holds the project authority 'identifiers'; the
 * system administrator sees everything.
 */

const yes = /^(y|yes|1|true)$/i

export const isIdentifier = (field: Pick<VersionField, 'comment'>): boolean =>
  yes.test(splitComment(field.comment).meta.identifier?.trim() ?? '')

export const mayDownloadIdentifiers = (actor: Actor, projectId: number): boolean =>
  actor.superuser || membershipOf(actor, projectId)?.authorities.has('identifiers') === true
