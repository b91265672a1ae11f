import { AnimatePresence, LazyMotion, m } from 'motion/react'
import { useEffect, useId, useRef } from 'react'
import { createPortal } from 'react-dom'
import { useTranslation } from 'react-i18next'
import { closeModalEntry, isTopModal, openModalEntry } from '@/lib/modal-history.ts'
import type { ModalProps } from './modal.tsx'
import './modal.css'

const loadMotionFeatures = () => import('@/app/motion-features.ts').then((module) => module.default)

/** Seconds the modal fades out before it unmounts (docs/product.md#shared-elements: closing waits 150 ms). */
const FADE_S = 0.15
/**
 * A tap on the mask this soon after the modal opened is the second tap of the double tap that opened it (the mask now
 * lies where the button was): it is ignored, and the modal stays open.
 */
export const MASK_GUARD_MS = 300

/**
 * The modal itself, with its fade (the animation library comes with the first modal that opens, not with the screen).
 * Dark dialog, 90% wide, at most 80% of the viewport high; closes on the mask, its close button, Escape and the
 * browser's back button (lib/modal-history.ts: the topmost modal only, the page stays).
 */
export default function ModalFrame({ open, title, onClose, testId, children }: ModalProps) {
  const { t } = useTranslation()
  const titleId = useId()
  const latestClose = useRef(onClose)
  latestClose.current = onClose
  const openedAt = useRef(0)
  if (!open) openedAt.current = 0
  else if (openedAt.current === 0) openedAt.current = Date.now()

  // A modal that can be dismissed when it opens owns a history entry while open; back closes it when it can.
  useEffect(() => {
    if (!open || !latestClose.current) return
    openModalEntry(titleId, () => {
      latestClose.current?.()
      return latestClose.current !== undefined
    })
    return () => closeModalEntry(titleId)
  }, [open, titleId])

  useEffect(() => {
    if (!open || !onClose) return
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === 'Escape' && isTopModal(titleId)) onClose()
    }
    window.addEventListener('keydown', onKeyDown)
    return () => window.removeEventListener('keydown', onKeyDown)
  }, [open, onClose, titleId])

  return createPortal(
    <LazyMotion features={loadMotionFeatures} strict>
      <AnimatePresence>
        {open && (
          <m.div
            className="modal-root"
            initial={{ opacity: 0 }}
            animate={{ opacity: 1 }}
            exit={{ opacity: 0 }}
            transition={{ duration: FADE_S }}
          >
            {onClose ? (
              <button
                type="button"
                className="modal-mask"
                tabIndex={-1}
                aria-label={t('common.close')}
                onClick={() => {
                  if (Date.now() - openedAt.current >= MASK_GUARD_MS) onClose()
                }}
              />
            ) : (
              <div className="modal-mask" />
            )}
            <m.div
              className="modal"
              role="dialog"
              aria-modal="true"
              aria-labelledby={titleId}
              data-testid={testId}
              initial={{ y: 16, scale: 0.98 }}
              animate={{ y: 0, scale: 1 }}
              exit={{ y: 8, scale: 0.98 }}
              transition={{ duration: FADE_S }}
            >
              <header className="modal-header">
                <h2 id={titleId}>{title}</h2>
                {onClose && (
                  <button type="button" className="modal-close" aria-label={t('common.close')} onClick={onClose}>
                    <svg viewBox="0 0 24 24" aria-hidden="true">
                      <path d="M6 6l12 12M18 6L6 18" />
                    </svg>
                  </button>
                )}
              </header>
              <div className="modal-body">{children}</div>
            </m.div>
          </m.div>
        )}
      </AnimatePresence>
    </LazyMotion>,
    document.body,
  )
}
