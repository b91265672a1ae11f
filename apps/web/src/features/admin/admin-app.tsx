import { Navigate, Route, Routes } from 'react-router'
import { useSignOut } from './api/sign-out.ts'
import { AuditScreen } from './audit/audit-screen.tsx'
import { AdminLayout, sectionPath } from './components/admin-layout.tsx'
import { LoginScreen } from './components/login-screen.tsx'
import { ConfigScreen } from './config/config-screen.tsx'
import { ContentScreen } from './content/content-screen.tsx'
import { useAdminLogin } from './hooks/use-admin-login.ts'
import { registerAdminStrings } from './i18n.ts'
import { OperationsScreen } from './operations/operations-screen.tsx'
import { UsersScreen } from './users/users-screen.tsx'
import { WithdrawalsScreen } from './withdrawals/withdrawals-screen.tsx'
import './admin.css'

registerAdminStrings()

/**
 * The operator console (issue 7) under /admin: its own lazily loaded chunk with its own login and session. Signed
 * out it shows the login; signed in, the areas the navigation lists.
 */
export default function AdminApp() {
  const login = useAdminLogin()
  const signOut = useSignOut()
  if (!login.session) return <LoginScreen login={login} />
  return (
    <AdminLayout session={login.session} onSignOut={signOut}>
      <Routes>
        <Route index element={<OperationsScreen />} />
        <Route path="withdrawals" element={<WithdrawalsScreen />} />
        <Route path="users" element={<UsersScreen />} />
        <Route path="config" element={<ConfigScreen />} />
        <Route path="content" element={<ContentScreen />} />
        <Route path="audit" element={<AuditScreen />} />
        <Route path="*" element={<Navigate to={sectionPath('operations')} replace />} />
      </Routes>
    </AdminLayout>
  )
}
