import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import '@blueprintjs/core/lib/css/blueprint.css'
import 'nprogress/nprogress.css'
import './app/styles.css'
import { configureApi } from './api/client.ts'
import { settings } from './state/settings.ts'
import { clearSession } from './state/session.ts'
import { getLang, loadLang, setLang, t } from './i18n/index.ts'
import { toast } from './ui/toaster.ts'
import { confirmRelogin } from './app/ReloginDialog.tsx'
import { App } from './app/App.tsx'
import { installKeyboardClickGuard } from './app/keyboardClickGuard.ts'
import { installMenuArrowKeys } from './app/menuArrowKeys.ts'

configureApi({
  toast: (message, { timeout }) => toast(message, 'danger', timeout),
  confirmRelogin,
  forceLogout: () => {
    clearSession()
    // Only a signed-in layout has loaded the workspace; the sign-in page's first load leaves it out.
    void import('./state/workspace.ts').then((m) => m.resetWorkspace())
  },
  reload: () => window.location.reload(),
  translate: (key) => t(key),
  language: () => settings.lang,
})

installKeyboardClickGuard(window)
installMenuArrowKeys(window)
window.addEventListener('unhandledrejection', (e) => console.error('unhandled rejection', e.reason))

function start() {
  document.documentElement.lang = getLang()
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <App />
    </StrictMode>,
  )
  // The palette matches titles in both languages: fetch the other dictionary too.
  void loadLang(settings.lang === 'zh' ? 'en' : 'zh').catch(() => undefined)
}

// An English session renders once its dictionary is here; should it not come, in Chinese.
setLang(settings.lang).then(start, (err: unknown) => {
  console.error('the dictionary of the chosen language did not load', err)
  start()
})
