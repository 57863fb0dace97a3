import { proxy } from 'valtio'

/** Which shell overlays are open; commands open them through ctx.ui. */
export const ui = proxy({
  paletteOpen: false,
  changePasswordOpen: false,
  shortcutsOpen: false,
  /** The full-page 'Loading...' overlay, e.g. while the session is being restored. */
  loading: false,
})
