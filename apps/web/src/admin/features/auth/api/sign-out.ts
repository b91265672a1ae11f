import { adminApi } from '@solpledge/contract/admin'
import { useQueryClient } from '@tanstack/react-query'
import { useCallback } from 'react'
import { adminCall } from '@/admin/lib/api-client.ts'
import { adminKeys } from '@/admin/lib/query-keys.ts'
import { clearAdminSession } from '@/admin/lib/session.ts'

/** Ends the console session on the server and here (here even when the server cannot be reached), and its data. */
export function useSignOut() {
  const queryClient = useQueryClient()
  return useCallback(async () => {
    try {
      await adminCall(adminApi.adminLogout, {})
    } catch (error) {
      console.error(error)
    }
    clearAdminSession()
    queryClient.removeQueries({ queryKey: adminKeys.all })
  }, [queryClient])
}
