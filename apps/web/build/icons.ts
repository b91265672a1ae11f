// The app's icons, drawn at build time (no binary in the repository): the favicon's violet-to-blue square with a
// white coin, as PNG files for the web app manifest (192 and 512 px, and a maskable 512 px one whose coin stays inside
// the safe zone, a circle of 40 % of the size) and for iOS's home screen (180 px).
import { deflateSync } from 'node:zlib'

const FROM = [0x8b, 0x5c, 0xf6] // #8b5cf6, as index.html's icon
const TO = [0x3b, 0x82, 0xf6] // #3b82f6
const SAMPLES = 4 // per axis: 16 samples per pixel smooth the edges

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1
  return c >>> 0
})
function crc32(bytes: Uint8Array) {
  let c = 0xffffffff
  for (const byte of bytes) c = (CRC_TABLE[(c ^ byte) & 0xff] as number) ^ (c >>> 8)
  return (c ^ 0xffffffff) >>> 0
}

function chunk(type: string, data: Uint8Array) {
  const out = Buffer.alloc(12 + data.length)
  out.writeUInt32BE(data.length, 0)
  out.write(type, 4, 'latin1')
  out.set(data, 8)
  out.writeUInt32BE(crc32(out.subarray(4, 8 + data.length)), 8 + data.length)
  return out
}

/** An RGBA image (rows of size × 4 bytes) as a PNG file. */
function png(size: number, rgba: Uint8Array) {
  const header = Buffer.alloc(13)
  header.writeUInt32BE(size, 0)
  header.writeUInt32BE(size, 4)
  header.set([8, 6, 0, 0, 0], 8) // 8 bits per channel, RGBA, deflate, no filter method, no interlace
  const rows = Buffer.alloc(size * (1 + size * 4))
  for (let y = 0; y < size; y++) rows.set(rgba.subarray(y * size * 4, (y + 1) * size * 4), y * (1 + size * 4) + 1)
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(rows, { level: 9 })),
    chunk('IEND', new Uint8Array(0)),
  ])
}

/**
 * Draws the icon: `maskable` fills the whole square (the platform cuts its own shape) with a smaller coin; otherwise a
 * square with rounded corners on a transparent ground.
 */
export function drawIcon(size: number, maskable = false) {
  const rgba = new Uint8Array(size * size * 4)
  const corner = maskable ? 0 : 0.22
  const ring = maskable ? { outer: 0.27, inner: 0.19, dot: 0.09 } : { outer: 0.33, inner: 0.235, dot: 0.11 }
  for (let y = 0; y < size; y++)
    for (let x = 0; x < size; x++) {
      let inside = 0
      let white = 0
      for (let sy = 0; sy < SAMPLES; sy++)
        for (let sx = 0; sx < SAMPLES; sx++) {
          // The sample's position in the unit square, and from the centre.
          const u = (x + (sx + 0.5) / SAMPLES) / size
          const v = (y + (sy + 0.5) / SAMPLES) / size
          const du = Math.max(corner - u, u - (1 - corner), 0)
          const dv = Math.max(corner - v, v - (1 - corner), 0)
          if (corner > 0 && du * du + dv * dv > corner * corner) continue
          inside++
          const r = Math.hypot(u - 0.5, v - 0.5)
          if ((r <= ring.outer && r >= ring.inner) || r <= ring.dot) white++
        }
      const t = (x + y) / (2 * size)
      const i = (y * size + x) * 4
      for (let c = 0; c < 3; c++) {
        const ground = (FROM[c] as number) * (1 - t) + (TO[c] as number) * t
        rgba[i + c] = Math.round(inside ? ground + ((255 - ground) * white) / inside : 0)
      }
      rgba[i + 3] = Math.round((255 * inside) / (SAMPLES * SAMPLES))
    }
  return png(size, rgba)
}

/** The icon files the build writes (under icons/), with the manifest's entries for them. */
export const ICONS = [
  { file: 'icons/icon-192.png', size: 192, maskable: false, manifest: true },
  { file: 'icons/icon-512.png', size: 512, maskable: false, manifest: true },
  { file: 'icons/icon-maskable-512.png', size: 512, maskable: true, manifest: true },
  { file: 'icons/apple-touch-icon.png', size: 180, maskable: true, manifest: false },
]
