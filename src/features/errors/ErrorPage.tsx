import { Button, NonIdealState } from '@blueprintjs/core'
import { useLocation } from 'wouter'
import { useT } from '../../i18n/useT.ts'

/** /404 and /401. */
export default function ErrorPage({ status }: { status: 404 | 401 }) {
  const t = useT()
  const [, navigate] = useLocation()
  return (
    <div className="error-page" data-testid={`page-${status}`}>
      <NonIdealState
        icon={status === 404 ? 'search' : 'lock'}
        title={String(status)}
        description={t(status === 404 ? 'errorPage.notFound' : 'errorPage.noPermission')}
        action={<Button intent="primary" icon="home" text={t('errorPage.backHome')} onClick={() => navigate('/')} />}
      />
    </div>
  )
}
