import { useToasts } from '@/lib/toast.ts'
import './toaster.css'

/** Renders the toasts of lib/toast.ts; mounted once at the app root. */
export function Toaster() {
  const toasts = useToasts()
  return (
    <div className="toaster">
      {toasts.map((toast) => (
        <div
          key={toast.id}
          className={`toast toast-${toast.kind}`}
          data-testid="toast"
          role={toast.kind === 'error' ? 'alert' : 'status'}
        >
          {toast.text}
        </div>
      ))}
    </div>
  )
}
