import { ChangePasswordDialog } from './ChangePasswordDialog.tsx'
import { logout } from './api/logout.ts'

/**
 * What a user whose password an administrator set sees after signing in: only the password
 * change, since the server refuses every other call until then (nothing behind it would load).
 */
export default function ForcedPasswordPage() {
  return (
    <div className="forced-password-page" data-testid="forced-password-page">
      <ChangePasswordDialog forced onSignOut={() => void logout()} />
    </div>
  )
}
