import { Card, H3, Button } from '@blueprintjs/core'
import { useLocation } from 'wouter'
import { useT } from '../../i18n/useT.ts'

/** /navigation: the platform chooser; this product has one platform, the workspace. */
export default function NavigationPage() {
  const t = useT()
  const [, navigate] = useLocation()
  return (
    <div className="login-page">
      <Card className="login-card" elevation={2}>
        <H3>{t('app.title')}</H3>
        <Button intent="primary" icon="arrow-right" fill text={t('navigation.enter')} onClick={() => navigate('/')} />
      </Card>
    </div>
  )
}
