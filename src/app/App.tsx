import { lazy, Suspense, useEffect, useState } from 'react'
import { OverlaysProvider, HotkeysProvider, Spinner } from '@blueprintjs/core'
import { Redirect, Route, Switch, useLocation } from 'wouter'
import { useSnapshot } from 'valtio'
import { ui } from '../state/ui.ts'
import { mayOpen, session } from '../state/session.ts'
import { useT } from '../i18n/useT.ts'
import LoginPage from '../features/auth/LoginPage.tsx'
import AuthRedirectPage from '../features/auth/AuthRedirectPage.tsx'
import NavigationPage from '../features/auth/NavigationPage.tsx'
import ErrorPage from '../features/errors/ErrorPage.tsx'
import ForcedPasswordPage from '../features/auth/ForcedPasswordPage.tsx'
import { ReloginDialog } from './ReloginDialog.tsx'
import { decide, hasRoles, hasSession, landingPath, loadSession, progress } from './guard.ts'
import { screenOf } from './screenViews.tsx'

// The signed-in layout (mosaic, palette, tables) loads after the sign-in page has shown.
const Shell = lazy(() => import('./Shell.tsx').then((m) => ({ default: m.Shell })))

/** Public routes of SPEC §2, then the guarded layout for every permitted screen. */
export function App() {
  return (
    <OverlaysProvider>
      <HotkeysProvider>
        <Guarded />
        <ReloginDialog />
        <LoadingOverlay />
      </HotkeysProvider>
    </OverlaysProvider>
  )
}

function Guarded() {
  const [location, navigate] = useLocation()
  const [, setLoaded] = useState(0)
  const decision = decide(location, hasSession(), hasRoles())

  useEffect(() => {
    progress.start()
    if (decision.kind === 'redirect') navigate(decision.to, { replace: true })
    else if (decision.kind === 'load') {
      ui.loading = true
      void loadSession().then((ok) => {
        ui.loading = false
        if (ok) setLoaded((n) => n + 1)
        else navigate('/', { replace: true })
      })
    }
    if (decision.kind === 'render') progress.done()
  }, [location, decision.kind])

  if (decision.kind !== 'render') return null
  return (
    <Switch>
      <Route path="/login" component={LoginPage} />
      <Route path="/auth-redirect" component={AuthRedirectPage} />
      <Route path="/navigation" component={NavigationPage} />
      <Route path="/404">
        <ErrorPage status={404} />
      </Route>
      <Route path="/401">
        <ErrorPage status={401} />
      </Route>
      <Route path="/">
        <Redirect to={landingPath(session.screens)} replace />
      </Route>
      <Route component={MainLayoutRoute} />
    </Switch>
  )
}

/**
 * Any path that is a screen goes to the layout when the user's roles grant it, /401 when not;
 * anything else to /404. /redirect/<path> stays in
 * the layout too, so a refresh remounts one view and the others keep their state.
 */
function MainLayoutRoute() {
  const [location] = useLocation()
  const { mustChangePassword } = useSnapshot(session)
  if (mustChangePassword) return <ForcedPasswordPage />
  const target = location.startsWith('/redirect/') ? location.slice('/redirect'.length) : location
  const screen = screenOf(target)
  if (!screen) return <Redirect to="/404" replace />
  // The server refuses the screen's calls anyway; the client does not even draw it.
  if (!mayOpen(screen.name)) return <Redirect to="/401" replace />
  return (
    <Suspense fallback={<Spinner className="view-spinner" />}>
      <Shell />
    </Suspense>
  )
}

function LoadingOverlay() {
  const { loading } = useSnapshot(ui)
  const t = useT()
  if (!loading) return null
  return (
    <div className="loading-overlay" data-testid="loading-overlay">
      <Spinner size={40} />
      <div>{t('app.loading')}</div>
    </div>
  )
}
