import type { BodyOf, ClientRoute, DataOf } from '@solpledge/contract/client'
import { useQueryClient } from '@tanstack/react-query'
import { reportActionError } from '@/lib/report-action-error.ts'
import { toast } from '@/lib/toast.ts'
import { useMoneyAction } from '@/lib/use-money-action.ts'
import { adminSend } from './api-client.ts'
import { adminKeys } from './query-keys.ts'

/**
 * A console write of `route`, its variables the body: the server's msg as a toast either way (e.g. 'Withdrawal
 * approved…' or 'a second operator must approve too'), then every console list refreshed, since one decision shows in
 * several (queue, user, audit log). Like every money action, one call at a time with one Idempotency-Key per action.
 */
export function useAdminAction<R extends ClientRoute>(route: R, onDone?: (data: DataOf<R>) => void) {
  const queryClient = useQueryClient()
  return useMoneyAction({
    mutationFn: (body: BodyOf<R>, idempotencyKey) => adminSend(route, body, { idempotencyKey }),
    onSuccess: ({ msg, data }) => {
      toast.success(msg)
      onDone?.(data)
    },
    onError: (error) => reportActionError(error),
    onSettled: () => queryClient.invalidateQueries({ queryKey: adminKeys.all }),
  })
}
