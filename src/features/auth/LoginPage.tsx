import { useEffect, useState, type FormEvent } from 'react'
import { Button, Callout, Card, FormGroup, H3, InputGroup, Tooltip } from '@blueprintjs/core'
import { useLocation, useSearch } from 'wouter'
import { useT, useLang } from '../../i18n/useT.ts'
import { setLang } from '../../i18n/index.ts'
import { setLangSetting } from '../../state/settings.ts'
import { isApiError } from '../../api/client.ts'
import { login } from './api/login.ts'
import { loadAuthSchemas } from './api/authSchemas.ts'
import { BusyButton } from '../../ui/BusyButton.tsx'

/** Sign-in: username (trimmed) and password; the server's refusal is shown under the form. */
export default function LoginPage() {
  const t = useT()
  const lang = useLang()
  const [, navigate] = useLocation()
  const search = useSearch()
  const [username, setUsername] = useState('')
  const [password, setPassword] = useState('')
  const [touched, setTouched] = useState(false)
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | null>(null)
  const [capsLock, setCapsLock] = useState(false)

  const usernameError = touched && username.trim() === '' ? t('login.usernameRequired') : null
  const passwordError = touched && password === '' ? t('login.passwordRequired') : null

  // Fetched while the user types; should it fail, the sign-in tries again and shows why.
  useEffect(() => {
    loadAuthSchemas().catch(() => undefined)
  }, [])

  async function submit(e: FormEvent) {
    e.preventDefault()
    setTouched(true)
    if (username.trim() === '' || password === '') return
    setBusy(true)
    setError(null)
    try {
      const res = await login({ username: username.trim(), password, platform: 'web' }, { toast: false })
      if (res.boolResult !== true) {
        setError(t('login.mismatch'))
        return
      }
      const redirect = new URLSearchParams(search).get('redirect')
      navigate(redirect && redirect.startsWith('/') && !redirect.startsWith('//') ? redirect : '/', { replace: true })
    } catch (err) {
      setError(isApiError(err) && err.envelope ? err.envelope.msg : err instanceof Error ? err.message : t('login.mismatch'))
    } finally {
      setBusy(false)
    }
  }

  const switchLang = () => {
    const next = lang === 'zh' ? 'en' : 'zh'
    setLangSetting(next)
    // A dictionary that cannot be fetched leaves the page as it is; the choice is kept for the next load.
    setLang(next).catch(() => undefined)
  }

  return (
    <div className="login-page">
      <Card className="login-card" elevation={2}>
        <form onSubmit={submit} noValidate data-testid="login-form">
          <div className="login-header">
            <H3>{t('login.title')}</H3>
            <Button
              variant="minimal"
              icon="translate"
              text={lang === 'zh' ? 'English' : '中文'}
              onClick={switchLang}
              data-testid="login-lang"
            />
          </div>
          <FormGroup
            label={t('login.username')}
            labelFor="login-username"
            intent={usernameError ? 'danger' : 'none'}
            helperText={usernameError}
          >
            <InputGroup
              id="login-username"
              name="username"
              leftIcon="user"
              autoComplete="username"
              autoFocus
              value={username}
              maxLength={64}
              intent={usernameError ? 'danger' : 'none'}
              onChange={(e) => setUsername(e.target.value)}
            />
          </FormGroup>
          <FormGroup
            label={t('login.password')}
            labelFor="login-password"
            intent={passwordError ? 'danger' : 'none'}
            helperText={passwordError}
          >
            <Tooltip content={t('login.capsLock')} isOpen={capsLock} placement="right">
              <InputGroup
                id="login-password"
                name="password"
                type="password"
                leftIcon="lock"
                autoComplete="current-password"
                value={password}
                maxLength={128}
                intent={passwordError ? 'danger' : 'none'}
                onChange={(e) => setPassword(e.target.value)}
                onKeyUp={(e) => setCapsLock(e.getModifierState('CapsLock'))}
              />
            </Tooltip>
          </FormGroup>
          {error && (
            <Callout intent="danger" icon="error" className="login-error" data-testid="login-error">
              {error}
            </Callout>
          )}
          <BusyButton type="submit" intent="primary" fill loading={busy} text={t('login.signIn')} data-testid="login-submit" />
        </form>
      </Card>
    </div>
  )
}
