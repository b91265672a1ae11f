import type { QrMatrix } from './qr.ts'

/** The poster's size in pixels: a 2:3 portrait image, sharp on a phone and light to share. */
export const POSTER_WIDTH = 720
export const POSTER_HEIGHT = 1080

export interface PosterContent {
  appName: string
  /** The invitation, e.g. "Join me on solpledge". */
  title: string
  /** A line under the QR code, e.g. "Scan to join with my invite code". */
  scan: string
  /** The inviter's address, shortened. */
  address: string
  /** The invite link itself, for those who cannot scan. */
  link: string
  qr: QrMatrix
}

const QR_BOX = 440
const QUIET = 4

/** Draws the invite poster: the app's name, the invitation, the QR code of the link on white, the short address. */
export function drawPoster(ctx: CanvasRenderingContext2D, content: PosterContent) {
  const background = ctx.createLinearGradient(0, 0, POSTER_WIDTH, POSTER_HEIGHT)
  background.addColorStop(0, '#1e1b4b')
  background.addColorStop(0.55, '#312e81')
  background.addColorStop(1, '#1d4ed8')
  ctx.fillStyle = background
  ctx.fillRect(0, 0, POSTER_WIDTH, POSTER_HEIGHT)

  ctx.textAlign = 'center'
  ctx.textBaseline = 'alphabetic'
  /** One centred line at height `y`, shrunk by the canvas to fit `margin` px from each side. */
  const line = (text: string, y: number, color: string, font: string, margin = 40) => {
    ctx.fillStyle = color
    ctx.font = font
    ctx.fillText(text, POSTER_WIDTH / 2, y, POSTER_WIDTH - 2 * margin)
  }
  line(content.appName, 150, '#ffffff', 'bold 64px system-ui, sans-serif')
  line(content.title, 220, '#c4b5fd', '36px system-ui, sans-serif')

  // The QR code on white with its quiet zone, whole modules only so that it stays sharp.
  const left = (POSTER_WIDTH - QR_BOX) / 2
  const top = 290
  ctx.fillStyle = '#ffffff'
  ctx.fillRect(left - 20, top - 20, QR_BOX + 40, QR_BOX + 40)
  const modules = content.qr.size + QUIET * 2
  const unit = Math.floor(QR_BOX / modules)
  const offset = Math.floor((QR_BOX - unit * modules) / 2) + QUIET * unit
  ctx.fillStyle = '#000000'
  for (let y = 0; y < content.qr.size; y++)
    for (let x = 0; x < content.qr.size; x++)
      if (content.qr.dark(x, y)) ctx.fillRect(left + offset + x * unit, top + offset + y * unit, unit, unit)

  line(content.scan, 850, '#e0e7ff', '30px system-ui, sans-serif')
  line(content.address, 920, '#ffffff', 'bold 40px ui-monospace, monospace')
  line(content.link, 1010, '#a5b4fc', '22px ui-monospace, monospace', 30)
}

/** The poster as a PNG file named `name`, drawn on a canvas of its own. */
export async function posterFile(content: PosterContent, name: string): Promise<File> {
  const canvas = document.createElement('canvas')
  canvas.width = POSTER_WIDTH
  canvas.height = POSTER_HEIGHT
  const ctx = canvas.getContext('2d')
  if (!ctx) throw new Error('no 2d canvas')
  drawPoster(ctx, content)
  const blob = await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, 'image/png'))
  if (!blob) throw new Error('the poster could not be drawn')
  return new File([blob], name, { type: 'image/png' })
}
