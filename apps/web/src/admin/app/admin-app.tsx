import { Navigate, Route, Routes } from 'react-router'
import { AuditScreen } from '@/admin/features/audit/components/audit-screen.tsx'
import { useSignOut } from '@/admin/features/auth/api/sign-out.ts'
import { LoginScreen } from '@/admin/features/auth/components/login-screen.tsx'
import { useAdminLogin } from '@/admin/features/auth/hooks/use-admin-login.ts'
import { ConfigScreen } from '@/admin/features/config/components/config-screen.tsx'
import { ContentScreen } from '@/admin/features/content/components/content-screen.tsx'
import { OperationsScreen } from '@/admin/features/operations/components/operations-screen.tsx'
import { UsersScreen } from '@/admin/features/users/components/users-screen.tsx'
import { WithdrawalsScreen } from '@/admin/features/withdrawals/components/withdrawals-screen.tsx'
import { registerAdminStrings } from '@/admin/lib/i18n.ts'
import { AdminLayout, sectionPath } from './admin-layout.tsx'
import './admin.css'

registerAdminStrings()

/**
 * The operator console (docs/admin-console.md) under /admin: its own lazily loaded chunk with its own login and
 * session. Signed out it shows the login; signed in, the areas the navigation lists.
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
