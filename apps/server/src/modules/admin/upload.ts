// Image upload for notices and banners (docs/product.md#paths-we-added: one file in the multipart field 'video'). The
// type is decided by the file's first bytes (PNG, JPEG, WebP, GIF; never SVG, which can carry script), the size is
// capped while reading, and the file is stored under DATA_DIR/uploads with a random name: the client's file name is
// only checked (a name with path parts is refused) and recorded in the audit log, never used as a path.
import { createHash, randomBytes } from 'node:crypto'
import fs from 'node:fs/promises'
import path from 'node:path'
import { UPLOAD_FIELD, UPLOAD_MAX_BYTES, UPLOAD_PATH, type UPLOAD_TYPES, type Upload } from '@solpledge/contract'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import type { Database } from '../../db/index.ts'
import { invalid, refuse } from '../../lib/app-error.ts'
import { audit } from './audit.ts'
import type { AdminCaller } from './session.ts'

interface ImageType {
  contentType: (typeof UPLOAD_TYPES)[number]
  ext: string
  /** File name extensions a client may give it. */
  names: string[]
  test: (bytes: Buffer) => boolean
}

const startsWith = (bytes: Buffer, ...values: number[]) => values.every((value, i) => bytes[i] === value)
const ascii = (bytes: Buffer, at: number, text: string) =>
  bytes.subarray(at, at + text.length).toString('latin1') === text

const IMAGE_TYPES: ImageType[] = [
  {
    contentType: 'image/png',
    ext: 'png',
    names: ['png'],
    test: (b) => startsWith(b, 0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a),
  },
  { contentType: 'image/jpeg', ext: 'jpg', names: ['jpg', 'jpeg'], test: (b) => startsWith(b, 0xff, 0xd8, 0xff) },
  { contentType: 'image/webp', ext: 'webp', names: ['webp'], test: (b) => ascii(b, 0, 'RIFF') && ascii(b, 8, 'WEBP') },
  { contentType: 'image/gif', ext: 'gif', names: ['gif'], test: (b) => ascii(b, 0, 'GIF87a') || ascii(b, 0, 'GIF89a') },
]

/** What a stored upload's name looks like: the only names GET /uploads/<name> serves. */
const STORED_NAME = /^[0-9a-f]{32}\.(png|jpg|webp|gif)$/

/** The image type of these bytes, or undefined. */
export const sniffImage = (bytes: Buffer): ImageType | undefined => IMAGE_TYPES.find((type) => type.test(bytes))

/**
 * A client file name is acceptable when it is a plain name: no directory parts, no '..', no control characters, not
 * hidden, of reasonable length. Its extension is returned (lower case) for the check against the content.
 */
export function plainNameExtension(name: string): string | undefined {
  if (name.length === 0 || name.length > 200 || name.startsWith('.')) return undefined
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this refuses
  if (/[/\\:\u0000-\u001f\u007f]/.test(name) || name.includes('..')) return undefined
  const dot = name.lastIndexOf('.')
  return dot > 0 ? name.slice(dot + 1).toLowerCase() : undefined
}

export const uploadsDir = (dataDir: string) => path.join(dataDir, 'uploads')

/** Reads the one file of a multipart request, checks it and stores it; the audit entry records who sent what. */
export async function storeUpload(
  db: Database,
  request: FastifyRequest,
  dataDir: string,
  caller: AdminCaller,
): Promise<Upload> {
  if (!request.isMultipart()) throw invalid('admin.uploadMissing', { field: UPLOAD_FIELD })
  // The size and count limits are the multipart plugin's (registered for this route in routes.ts).
  const part = await request.file()
  if (!part || part.fieldname !== UPLOAD_FIELD) throw invalid('admin.uploadMissing', { field: UPLOAD_FIELD })
  const extension = plainNameExtension(part.filename)
  if (extension === undefined) {
    part.file.resume()
    throw refuse('admin.uploadName')
  }
  let bytes: Buffer
  try {
    bytes = await part.toBuffer()
  } catch (error) {
    if ((error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE')
      throw refuse('admin.uploadTooLarge', { max: `${UPLOAD_MAX_BYTES / 1024 / 1024} MB` })
    throw error
  }
  const type = sniffImage(bytes)
  if (!type?.names.includes(extension)) throw refuse('admin.uploadType')

  const name = `${randomBytes(16).toString('hex')}.${type.ext}`
  const dir = uploadsDir(dataDir)
  await fs.mkdir(dir, { recursive: true })
  await fs.writeFile(path.join(dir, name), bytes, { flag: 'wx', mode: 0o644 })
  const upload: Upload = { url: `${UPLOAD_PATH}/${name}`, name, content_type: type.contentType, size: bytes.length }
  await db.transaction().execute((trx) =>
    audit(trx, caller, 'upload.image', `upload:${name}`, {
      ...upload,
      original_name: part.filename,
      sha256: createHash('sha256').update(bytes).digest('hex'),
    }),
  )
  return upload
}

/**
 * GET /uploads/<name>: stored uploads only, as the type their name says (never sniffed: the security headers say
 * nosniff), under a policy that loads nothing and is framed by no one.
 */
export function serveUploads(app: FastifyInstance, dataDir: string) {
  app.get(`${UPLOAD_PATH}/:name`, { schema: { hide: true } }, async (request, reply) => {
    const { name } = request.params as { name: string }
    const match = STORED_NAME.exec(name)
    const type = match && IMAGE_TYPES.find((t) => t.ext === match[1])
    const bytes = type ? await fs.readFile(path.join(uploadsDir(dataDir), name)).catch(() => undefined) : undefined
    if (!type || !bytes) return reply.status(404).type('text/plain').send('Not found')
    return reply
      .type(type.contentType)
      .header('content-security-policy', "default-src 'none'; frame-ancestors 'none'")
      .header('cache-control', 'public, max-age=31536000, immutable')
      .send(bytes)
  })
}
