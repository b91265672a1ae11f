import { saveFile } from '@/lib/save-file.ts'

/** What sharing the poster came to: the share sheet took it, the user closed the sheet, or the file was saved. */
export type ShareOutcome = 'shared' | 'cancelled' | 'downloaded'

export interface ShareEnvironment {
  share?: ((data: ShareData) => Promise<void>) | undefined
  canShare?: ((data: ShareData) => boolean) | undefined
  /** Saves the file (the fallback where the Web Share API cannot take files). */
  download: (file: File) => void
}

const browser = (): ShareEnvironment => ({
  share: typeof navigator.share === 'function' ? (data) => navigator.share(data) : undefined,
  canShare: typeof navigator.canShare === 'function' ? (data) => navigator.canShare(data) : undefined,
  download: (file) => saveFile(file, file.name),
})

/**
 * Shares `file` with the link and its text through the system's share sheet (the Web Share API, where it takes
 * files), or saves it where it cannot or fails; a share sheet the user closes is not an error.
 */
export async function shareOrDownload(
  file: File,
  data: { title: string; text: string; url: string },
  env: ShareEnvironment = browser(),
): Promise<ShareOutcome> {
  const withFile: ShareData = { ...data, files: [file] }
  if (env.share && env.canShare?.({ files: [file] })) {
    try {
      await env.share(withFile)
      return 'shared'
    } catch (error) {
      if (error instanceof Error && error.name === 'AbortError') return 'cancelled'
    }
  }
  env.download(file)
  return 'downloaded'
}
