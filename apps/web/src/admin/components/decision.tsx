import { type ReactNode, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { useAdminSession } from '../lib/session.ts'
import { ConfirmDialog } from './confirm-dialog.tsx'
import { ReasonDialog } from './reason-dialog.tsx'
import { Mono, Time } from './ui.tsx'

/** A console write that decides one item: approve takes its id, reject its id and a reason. */
interface Decide<B> {
  isPending: boolean
  mutate: (body: B) => void
}

/** The item of a review list being approved or rejected (withdrawals, adjustments, pending changes), if any. */
export function useDecision<T extends { id: string }>() {
  const [approving, setApproving] = useState<T | null>(null)
  const [rejecting, setRejecting] = useState<T | null>(null)
  return { approving, setApproving, rejecting, setRejecting }
}

interface DecisionButtonsProps {
  /** 'admin-adjustment' → data-testid admin-adjustment-approve and admin-adjustment-reject. */
  testId: string
  canDecide: boolean
  /** Approving is refused here: asked for (or already approved) by the signed-in admin. */
  blocked: boolean
  /** Why approving is refused, shown beside the buttons. */
  blockedNote?: string
  pending: boolean
  onApprove: () => void
  onReject: () => void
}

/** Approve and reject of one item waiting for a decision. */
export function DecisionButtons({
  testId,
  canDecide,
  blocked,
  blockedNote,
  pending,
  onApprove,
  onReject,
}: DecisionButtonsProps) {
  const { t } = useTranslation('admin')
  return (
    <div className="admin-actions">
      <button
        type="button"
        className="admin-button admin-primary"
        data-testid={`${testId}-approve`}
        disabled={!canDecide || blocked || pending}
        title={blocked ? blockedNote : undefined}
        onClick={onApprove}
      >
        {t('withdrawals.approve')}
      </button>
      <button
        type="button"
        className="admin-button admin-danger"
        data-testid={`${testId}-reject`}
        disabled={!canDecide}
        onClick={onReject}
      >
        {t('withdrawals.reject')}
      </button>
      {blocked && blockedNote && <span className="muted-note">{blockedNote}</span>}
    </div>
  )
}

interface DecisionDialogsProps<T extends { id: string }> {
  decision: ReturnType<typeof useDecision<T>>
  approve: Decide<{ id: string }>
  reject: Decide<{ id: string; reason: string }>
  /** The titles: `<section>.approveTitle` and `<section>.rejectTitle` of the admin texts. */
  section: 'withdrawals' | 'adjustments' | 'changes'
  /** What approving does, naming the amount and whose it is. */
  approveText: (item: T) => ReactNode
  /** Why approving this item needs a second confirmation, if it does (ConfirmDialog's `warning`). */
  approveWarning?: (item: T) => { text: ReactNode; acknowledge: string } | null
  /** What rejecting does, when it needs saying. */
  rejectText?: (item: T) => ReactNode
}

/** Approving asks for a confirmation naming what happens; rejecting asks for a reason. */
export function DecisionDialogs<T extends { id: string }>({
  decision: { approving, setApproving, rejecting, setRejecting },
  approve,
  reject,
  section,
  approveText,
  approveWarning,
  rejectText,
}: DecisionDialogsProps<T>) {
  const { t } = useTranslation('admin')
  // A scheduled change (decided, waiting for its notice period) is cancelled, not rejected.
  const cancelling = (rejecting as { status?: string } | null)?.status === 'scheduled'
  return (
    <>
      <ConfirmDialog
        open={approving !== null}
        title={t(`${section}.approveTitle`)}
        confirm={t('withdrawals.approve')}
        warning={approving && approveWarning?.(approving)}
        pending={approve.isPending}
        onClose={() => setApproving(null)}
        onConfirm={() => approving && approve.mutate({ id: approving.id })}
      >
        {approving && approveText(approving)}
      </ConfirmDialog>
      <ReasonDialog
        open={rejecting !== null}
        title={t(cancelling ? 'changes.cancelTitle' : `${section}.rejectTitle`)}
        confirm={t(cancelling ? 'changes.cancel' : 'withdrawals.reject')}
        pending={reject.isPending}
        onClose={() => setRejecting(null)}
        onConfirm={(reason) => rejecting && reject.mutate({ id: rejecting.id, reason })}
      >
        {rejecting && rejectText && <p className="muted-note">{rejectText(rejecting)}</p>}
      </ReasonDialog>
    </>
  )
}

interface DecisionStateProps {
  /** The item's status, translated. */
  status: string
  decidedBy: string | null
  decidedAt: string | null
  reason: string | null
}

/** The status cell of a reviewed item: its status, who decided it and when, and the reason given. */
export function DecisionState({ status, decidedBy, decidedAt, reason }: DecisionStateProps) {
  return (
    <td className="admin-wrap">
      <span className="badge">{status}</span>
      {decidedBy && (
        <div className="muted-note">
          <Mono text={decidedBy} /> · <Time iso={decidedAt} />
        </div>
      )}
      {reason && <div className="muted-note">{reason}</div>}
    </td>
  )
}

/** A proposal a second admin decides (a balance adjustment, a change of the allow-list or the asset settings). */
interface Proposal {
  id: string
  status: string
  decided_by: string | null
  decided_at: string | null
  decision_reason: string | null
}

interface ProposalCellsProps<T extends Proposal> {
  item: T
  /** The admin who asked for it: never the one who may approve it. */
  proposedBy: string
  /** The item's status, translated. */
  status: string
  /** 'admin-adjustment' → data-testid admin-adjustment-approve and admin-adjustment-reject. */
  testId: string
  canDecide: boolean
  decision: ReturnType<typeof useDecision<T>>
  approving: boolean
}

/**
 * A proposal's last cells: who proposed it, its state, approve and reject while it waits, and cancel while it is
 * scheduled (a change that raises payouts, before the end of its notice period).
 */
export function ProposalCells<T extends Proposal>({
  item,
  proposedBy,
  status,
  testId,
  canDecide,
  decision,
  approving,
}: ProposalCellsProps<T>) {
  const { t } = useTranslation('admin')
  const session = useAdminSession()
  return (
    <>
      <td>
        <Mono text={proposedBy} />
      </td>
      <DecisionState
        status={status}
        decidedBy={item.decided_by}
        decidedAt={item.decided_at}
        reason={item.decision_reason}
      />
      <td>
        {item.status === 'scheduled' && (
          <div className="admin-actions">
            <button
              type="button"
              className="admin-button admin-danger"
              data-testid={`${testId}-cancel`}
              disabled={!canDecide}
              onClick={() => decision.setRejecting(item)}
            >
              {t('changes.cancel')}
            </button>
          </div>
        )}
        {item.status === 'pending' && (
          <DecisionButtons
            testId={testId}
            canDecide={canDecide}
            blocked={proposedBy === session?.address}
            blockedNote={t('adjustments.notOwn')}
            pending={approving}
            onApprove={() => decision.setApproving(item)}
            onReject={() => decision.setRejecting(item)}
          />
        )}
      </td>
    </>
  )
}
