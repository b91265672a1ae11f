/** A QR code's modules: `size` × `size`, dark or light. */
export interface QrMatrix {
  size: number
  dark: (x: number, y: number) => boolean
}

/**
 * The QR code of `text` (error correction M: a phone still reads it printed small or partly covered). The library is
 * imported here, on the team screen's first QR, so it stays out of the entry chunk.
 */
export async function qrMatrix(text: string): Promise<QrMatrix> {
  const { create } = await import('qrcode')
  const { modules } = create(text, { errorCorrectionLevel: 'M' })
  return { size: modules.size, dark: (x, y) => modules.get(y, x) === 1 }
}

/** The dark modules as one SVG path in module units, each row's runs as rectangles, offset by `margin` modules. */
export function qrPath(qr: QrMatrix, margin = 0) {
  let path = ''
  for (let y = 0; y < qr.size; y++) {
    let x = 0
    while (x < qr.size) {
      if (!qr.dark(x, y)) {
        x++
        continue
      }
      const start = x
      while (x < qr.size && qr.dark(x, y)) x++
      path += `M${start + margin} ${y + margin}h${x - start}v1h${start - x}z`
    }
  }
  return path
}
