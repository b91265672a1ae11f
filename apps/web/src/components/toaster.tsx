import { AnimatePresence, m } from 'motion/react'
import { useToasts } from '../lib/toast.ts'
import './toaster.css'

/** Renders the toasts of lib/toast.ts; mounted once at the app root. */
export function Toaster() {
  const toasts = useToasts()
  return (
    <div className="toaster">
      <AnimatePresence>
        {toasts.map((toast) => (
          <m.div
            key={toast.id}
            className={`toast toast-${toast.kind}`}
            data-testid="toast"
            role={toast.kind === 'error' ? 'alert' : 'status'}
            initial={{ opacity: 0, y: -12, scale: 0.96 }}
            animate={{ opacity: 1, y: 0, scale: 1 }}
            exit={{ opacity: 0, scale: 0.96 }}
            transition={{ duration: 0.18 }}
          >
            {toast.text}
          </m.div>
        ))}
      </AnimatePresence>
    </div>
  )
}
