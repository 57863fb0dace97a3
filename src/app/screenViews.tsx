import { lazy, Suspense, type ComponentType, type LazyExoticComponent } from 'react'
import { Spinner, type IconName } from '@blueprintjs/core'
import { menus, screens, type Screen } from '../../contract/screens.ts'
import { PlannedScreen } from '../ui/PlannedScreen.tsx'
import { ViewErrorBoundary } from './ViewErrorBoundary.tsx'

/** Screens with their own feature code, loaded on first open (code-split). */
const built: Record<string, LazyExoticComponent<ComponentType>> = {
  dashboard: lazy(() => import('../features/dashboard/DashboardPage.tsx')),
}

export function screenOf(path: string): Screen | undefined {
  const pathname = path.split('?')[0]
  return screens.find((s) => s.path === pathname)
}

/** How a screen's tab behaves: its title key, whether it stays, whether it is kept alive. */
export const tabMeta = (screen: Screen) => ({ title: screen.title, affix: screen.affix === true, noCache: screen.noCache === true })

/** The view of one tab, by its full path. */
export function renderView(path: string) {
  const screen = screenOf(path)
  if (!screen) return null
  const View = built[screen.name]
  const icon = (screen.icon ?? menus.find((m) => m.id === screen.menu)?.icon) as IconName | undefined
  return (
    <ViewErrorBoundary>
      <Suspense fallback={<Spinner className="view-spinner" />}>
        {View ? <View /> : <PlannedScreen title={screen.title} planKey={`plan.${screen.name}`} icon={icon} />}
      </Suspense>
    </ViewErrorBoundary>
  )
}
