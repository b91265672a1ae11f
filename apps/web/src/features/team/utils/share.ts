/** What sharing the poster came to: the share sheet took it, the user closed the sheet, or the file was saved. */
export type ShareOutcome = 'shared' | 'cancelled' | 'downloaded'

export interface ShareEnvironment {
  share?: ((data: ShareData) => Promise<void>) | undefined
  canShare?: ((data: ShareData) => boolean) | undefined
  /** Saves the file (the fallback where the Web Share API cannot take files). */
  download: (file: File) => void
}

/** Saves a file through a link with `download`: the browser's own download, no page left. */
function downloadFile(file: File) {
  const url = URL.createObjectURL(file)
  const link = document.createElement('a')
  link.href = url
  link.download = file.name
  link.rel = 'noopener'
  document.body.append(link)
  link.click()
  link.remove()
  // The download has its own copy once started; the URL only has to outlive the click.
  setTimeout(() => URL.revokeObjectURL(url), 60_000)
}

const browser = (): ShareEnvironment => ({
  share: typeof navigator.share === 'function' ? (data) => navigator.share(data) : undefined,
  canShare: typeof navigator.canShare === 'function' ? (data) => navigator.canShare(data) : undefined,
  download: downloadFile,
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
