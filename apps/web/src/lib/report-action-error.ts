import { Code, type MessageKey } from '@solpledge/contract/client'
import i18next from 'i18next'
import { ApiError } from './api-client.ts'
import { toast } from './toast.ts'

/**
 * A user action failed (docs/product.md#envelope): the server's msg when it refused, else `fallback`. A -403 was
 * already shown by the API client when it ended the session.
 */
export function reportActionError(error: unknown, fallback: MessageKey = 'error.internal') {
  console.error(error)
  if (error instanceof ApiError) {
    if (error.code !== Code.SESSION_INVALID) toast.error(error.message)
    return
  }
  toast.error(i18next.t(`msg:${fallback}`))
}
