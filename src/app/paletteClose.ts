/**
 * The palette's closing step (focus given back, then the chosen command) waits a task for its
 * dialog to be gone. A hotkey pressed within that task finishes it first, so the key acts after
 * the command chosen before it (a project made current, then "find subject" in it), as typed.
 */
let pending: (() => void) | null = null

/** Runs `finish` a task from now, or earlier when a hotkey calls finishPaletteClose. */
export function afterPaletteClose(finish: () => void): void {
  const once = () => {
    if (pending !== once) return
    pending = null
    finish()
  }
  pending = once
  setTimeout(once)
}

export function finishPaletteClose(): void {
  pending?.()
}
