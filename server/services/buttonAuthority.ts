import type { ButtonAuthority } from '../../contract/studyObject.ts'
import type { Actor } from './actor.ts'
import { holds } from './policy.ts'

/** The research-object buttons the actor may use: the grants the routes check, nothing else. */
export function buttonAuthority(actor: Actor): ButtonAuthority {
  return {
    view: holds(actor, 'subject.view'),
    add: holds(actor, 'subject.create'),
    edit: holds(actor, 'subject.edit'),
    delete: holds(actor, 'subject.delete'),
    sign: holds(actor, 'subject.sign'),
    export: holds(actor, 'subject.export'),
    unblind: holds(actor, 'subject.unblind'),
    import: holds(actor, 'dataLoad.import'),
  }
}
