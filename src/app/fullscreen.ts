/** False where the browser offers no fullscreen (SPEC §2 warns then). */
export function toggleFullscreen(): boolean {
  if (!document.fullscreenEnabled) return false
  if (document.fullscreenElement) void document.exitFullscreen()
  else void document.documentElement.requestFullscreen()
  return true
}
