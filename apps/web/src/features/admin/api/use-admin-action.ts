import { useMutation, useQueryClient } from '@tanstack/react-query'
import { reportActionError } from '../../../lib/report-action-error.ts'
import { toast } from '../../../lib/toast.ts'
import { adminKeys } from './keys.ts'

/**
 * A console write: the server's msg as a toast either way (e.g. 'Withdrawal approved…' or 'a second operator must
 * approve too'), then every console list refreshed, since one decision shows in several (queue, user, audit log).
 */
export function useAdminAction<V, D>(
  act: (variables: V) => Promise<{ msg: string; data: D }>,
  onDone?: (data: D) => void,
) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: act,
    onSuccess: ({ msg, data }) => {
      toast.success(msg)
      onDone?.(data)
    },
    onError: (error) => reportActionError(error),
    onSettled: () => queryClient.invalidateQueries({ queryKey: adminKeys.all }),
  })
}
