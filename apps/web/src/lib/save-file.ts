/** Saves a file through a link with `download`: the browser's own download, no page left. */
export function saveFile(file: Blob, name: string) {
  const url = URL.createObjectURL(file)
  const link = document.createElement('a')
  link.href = url
  link.download = name
  link.rel = 'noopener'
  document.body.append(link)
  link.click()
  link.remove()
  // The download has its own copy once started; the URL only has to outlive the click.
  setTimeout(() => URL.revokeObjectURL(url), 60_000)
}
