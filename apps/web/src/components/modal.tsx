import { lazy, type ReactNode, Suspense, useState } from 'react'

const ModalFrame = lazy(() => import('./modal-frame.tsx'))

export interface ModalProps {
  open: boolean
  title: ReactNode
  /** Without onClose the modal cannot be dismissed: no close button, mask and Escape do nothing. */
  onClose?: () => void
  testId?: string
  children: ReactNode
}

/**
 * Dark dialog, 90% wide, at most 80% of the viewport high; closes on the mask, its close button and Escape
 * (modal-frame.tsx). Nothing is loaded until it first opens.
 */
export function Modal(props: ModalProps) {
  const [opened, setOpened] = useState(props.open)
  if (props.open && !opened) setOpened(true)
  return opened ? (
    <Suspense fallback={null}>
      <ModalFrame {...props} />
    </Suspense>
  ) : null
}
