import { proxy } from 'valtio'

/** Which shell overlays are open; commands open them through ctx.ui. */
export const ui = proxy({
  paletteOpen: false,
  /** A record source the palette searches instead of commands (e.g. 'indicators'). */
  paletteMode: null as string | null,
  changePasswordOpen: false,
  shortcutsOpen: false,
  /** The full-page 'Loading...' overlay, e.g. while the session is being restored. */
  loading: false,
})
