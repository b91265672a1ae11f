import { useEffect, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { PrimaryButton } from '@/components/primary-button.tsx'
import { APP_NAME } from '@/lib/config.ts'
import { copyShortcut, copyText } from '@/lib/copy-text.ts'
import { shorten } from '@/lib/shorten.ts'
import { toast } from '@/lib/toast.ts'
import { inviteLink } from '../utils/invite-link.ts'
import { posterFile } from '../utils/poster.ts'
import { type QrMatrix, qrMatrix, qrPath } from '../utils/qr.ts'
import { shareOrDownload } from '../utils/share.ts'

/** Modules of white around the code, as the QR standard asks. */
const QUIET_ZONE = 4

/**
 * The user's invite link (their address as the code): its QR code to scan from another phone, the link with Copy, and
 * Share, which hands a poster (the app's name, the QR code, the short address) with the link to the system's share
 * sheet, or saves the poster where the browser cannot share files.
 */
export function InviteCard({ address }: { address: string }) {
  const { t } = useTranslation(['ui', 'msg'])
  const link = inviteLink(window.location.origin, address)
  const qr = useQr(link)
  const [sharing, setSharing] = useState(false)

  const copy = async () => {
    const copied = await copyText(link, t('msg:common.copyPrompt', { shortcut: copyShortcut() }))
    if (copied) toast.success(t('msg:common.copySuccess'))
    else toast.error(t('msg:common.copyFailed'))
  }
  const share = async () => {
    if (!qr || sharing) return
    setSharing(true)
    try {
      const poster = await posterFile(
        {
          appName: APP_NAME,
          title: t('team.invite.posterTitle', { app: APP_NAME }),
          scan: t('team.invite.posterScan'),
          address: shorten(address, 4),
          link,
          qr,
        },
        `${APP_NAME}-invite.png`,
      )
      const outcome = await shareOrDownload(poster, {
        title: t('team.invite.posterTitle', { app: APP_NAME }),
        text: t('team.invite.shareText', { app: APP_NAME }),
        url: link,
      })
      if (outcome === 'downloaded') toast.success(t('team.invite.saved'))
    } catch (error) {
      console.error(error)
      toast.error(t('team.invite.shareFailed'))
    } finally {
      setSharing(false)
    }
  }

  return (
    <section className="card team-card" aria-labelledby="team-invite-title">
      <h2 id="team-invite-title" className="section-title">
        {t('team.invite.title')}
      </h2>
      <p className="muted-note">{t('team.invite.text')}</p>
      <div className="invite-qr">
        {qr ? (
          <svg
            role="img"
            aria-label={t('team.invite.qr')}
            viewBox={`0 0 ${qr.size + QUIET_ZONE * 2} ${qr.size + QUIET_ZONE * 2}`}
            shapeRendering="crispEdges"
            data-testid="invite-qr"
            data-size={qr.size}
          >
            <rect width="100%" height="100%" fill="#fff" />
            <path d={qrPath(qr, QUIET_ZONE)} fill="#000" />
          </svg>
        ) : (
          <span className="invite-qr-pending" aria-hidden="true" />
        )}
      </div>
      <p className="team-link" data-testid="invite-link">
        {link}
      </p>
      <div className="invite-actions">
        <PrimaryButton data-testid="copy-invite" onClick={() => void copy()}>
          {t('team.invite.copy')}
        </PrimaryButton>
        <button
          type="button"
          className="outline-button"
          data-testid="share-invite"
          disabled={!qr || sharing}
          aria-busy={sharing}
          onClick={() => void share()}
        >
          {sharing ? t('team.invite.sharing') : t('team.invite.share')}
        </button>
      </div>
    </section>
  )
}

/** The QR code of `text`, once its library has loaded (null until then, or if it failed: the link is still there). */
function useQr(text: string) {
  const [qr, setQr] = useState<{ text: string; matrix: QrMatrix } | null>(null)
  useEffect(() => {
    let current = true
    qrMatrix(text).then(
      (matrix) => current && setQr({ text, matrix }),
      (error: unknown) => console.error(error),
    )
    return () => {
      current = false
    }
  }, [text])
  return qr?.text === text ? qr.matrix : null
}
