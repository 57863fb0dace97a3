/**
 * Dialogs opened by id (ctx.ui.open). A request waits here until the view that shows the dialog
 * reads it, so a command may open a dialog of a screen it has just navigated to (still loading).
 */
import { proxy, useSnapshot } from 'valtio'
import type { DialogId } from '../../commands/context.ts'

interface Request {
  args: unknown
  /** A new request for the same dialog remounts it. */
  seq: number
}

const requests = proxy<Record<string, Request | null>>({})
let seq = 0

export function openDialog<A>(dialog: DialogId<A>, args: A): void {
  requests[dialog.id] = { args, seq: ++seq }
}

export function closeDialog<A>(dialog: DialogId<A>): void {
  requests[dialog.id] = null
}

/** The open request of `dialog`, or null. */
export function useDialog<A>(dialog: DialogId<A>): { args: A; seq: number } | null {
  const r = useSnapshot(requests)[dialog.id]
  return r ? { args: r.args as A, seq: r.seq } : null
}
