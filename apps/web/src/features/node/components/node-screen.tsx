import { useCallback, useMemo, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Page } from '@/components/page.tsx'
import { SignedOut } from '@/components/signed-out.tsx'
import { useSignedInAddress } from '@/lib/session.ts'
import { useMyNodes } from '../api/get-my-nodes.ts'
import { type NodeLevel, useNodeLevels } from '../api/get-node-levels.ts'
import { BuyNodeDialog } from './buy-node-dialog.tsx'
import { MyNodes } from './my-nodes.tsx'
import { NodeLevels } from './node-levels.tsx'
import './node.css'

/**
 * /node: the node levels on sale with purchase from the balance or on chain, and the user's own nodes
 * (docs/product.md#nodes). A refusal returned after an on-chain payment stays shown until dismissed.
 */
export function NodeScreen() {
  const { t } = useTranslation()
  const address = useSignedInAddress()
  const { data: levels } = useNodeLevels()
  const { data: mine } = useMyNodes()
  const owned = useMemo(() => new Set(mine?.map((node) => node.level)), [mine])
  const [dialog, setDialog] = useState<{ code: string; open: boolean } | null>(null)
  const [refusal, setRefusal] = useState<string | null>(null)
  const close = useCallback(() => setDialog((current) => current && { ...current, open: false }), [])
  // Read fresh from the levels, so the dialog keeps its level while it fades out.
  const level = levels?.list.find((item) => item.code === dialog?.code) ?? null

  return (
    <Page title={t('screens.node')}>
      {address && refusal && (
        <div className="card node-refusal" role="alert" data-testid="node-payment-refusal">
          <p>{refusal}</p>
          <button type="button" className="node-retry" onClick={() => setRefusal(null)}>
            {t('common.close')}
          </button>
        </div>
      )}
      <NodeLevels
        owned={owned}
        onBuy={address ? (item: NodeLevel) => setDialog({ code: item.code, open: true }) : undefined}
      />
      {address ? (
        <>
          <MyNodes />
          <BuyNodeDialog
            open={dialog?.open ?? false}
            level={level}
            pool={levels?.pool ?? null}
            onClose={close}
            onRefused={setRefusal}
          />
        </>
      ) : (
        <SignedOut text={t('node.signedOut')} testId="node-signed-out" />
      )}
    </Page>
  )
}
