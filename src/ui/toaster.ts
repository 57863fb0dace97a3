import { OverlayToaster, Position, type Intent as BpIntent, type Toaster } from '@blueprintjs/core'
import type { Intent } from '../../commands/context.ts'

let toaster: Promise<Toaster> | undefined

/** SPEC §8/§9: errors stay 5000 ms; the rest use Blueprint's default. */
export function toast(message: string, intent: Intent = 'none', timeout?: number): void {
  toaster ??= OverlayToaster.create({ position: Position.TOP, maxToasts: 5 })
  const ms = timeout ?? (intent === 'danger' ? 5000 : 3000)
  void toaster.then((t) => t.show({ message, intent: intent as BpIntent, timeout: ms }))
}
