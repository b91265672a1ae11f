import { QueryCache, QueryClient } from '@tanstack/react-query'
import { ApiError } from '@/lib/api-client.ts'

/** Retries of a failed query: network and chain hiccups once more, server refusals never. */
const MAX_RETRIES = 1

/**
 * The app's react-query client. Data-loading failures are only logged (docs/product.md#wallet-toasts): screens show
 * what they have and user actions report their own errors.
 */
export const queryClient = new QueryClient({
  queryCache: new QueryCache({ onError: (error) => console.error(error) }),
  defaultOptions: {
    queries: {
      retry: (failures, error) => !(error instanceof ApiError) && failures < MAX_RETRIES,
      staleTime: 2_000,
    },
  },
})
