import { useTranslation } from 'react-i18next'
import { closeReceipt, useReceipt } from '@/lib/receipt.ts'
import { Facts } from './facts.tsx'
import { Modal } from './modal.tsx'
import { PrimaryButton } from './primary-button.tsx'
import { SignatureLink } from './signature-link.tsx'
import './review-sheet.css'

/**
 * The receipt after a money action (lib/receipt.ts), mounted once at the app root; test ids `receipt`,
 * `receipt-state` (with `data-state`), `receipt-signature` and `receipt-done`. The same sheet as the review before it:
 * what moved and the fee row by row, then the state the action is in and its transaction on the explorer.
 */
export function ReceiptSheet() {
  const { t } = useTranslation()
  const receipt = useReceipt()
  return (
    <Modal open={receipt !== null} title={receipt?.title ?? ''} onClose={closeReceipt} testId="receipt">
      {receipt && (
        <div className="review-sheet">
          <Facts
            className="facts-box review-rows"
            facts={[
              ...receipt.rows.map((row) => ({ ...row, testId: `receipt-${row.id}` })),
              {
                id: 'state',
                label: t('receipt.state'),
                value: (
                  <span
                    className={`badge badge-${receipt.state.tone}`}
                    data-testid="receipt-state"
                    data-state={receipt.state.value}
                  >
                    {receipt.state.text}
                  </span>
                ),
              },
              ...(receipt.signature
                ? [
                    {
                      id: 'signature',
                      label: t('receipt.transaction'),
                      value: <SignatureLink signature={receipt.signature} testId="receipt-signature" />,
                    },
                  ]
                : []),
            ]}
          />
          <PrimaryButton data-testid="receipt-done" onClick={closeReceipt}>
            {t('receipt.done')}
          </PrimaryButton>
        </div>
      )}
    </Modal>
  )
}
