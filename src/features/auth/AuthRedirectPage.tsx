import { useEffect } from 'react'
import { useLocation, useSearch } from 'wouter'
import { setToken } from '../../state/session.ts'

/**
 * /auth-redirect?token=…: another system signs the user in and hands over a token; it is kept
 * and the guard checks it by loading the user info. Without a token: back to /login.
 */
export default function AuthRedirectPage() {
  const search = useSearch()
  const [, navigate] = useLocation()
  useEffect(() => {
    const token = new URLSearchParams(search).get('token')
    if (token && /^[A-Za-z0-9_-]{20,256}$/.test(token)) {
      setToken(token)
      navigate('/', { replace: true })
    } else navigate('/login', { replace: true })
  }, [search, navigate])
  return null
}
