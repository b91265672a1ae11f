import { useState } from 'react'
import { reportActionError } from './report-action-error.ts'
import { saveFile } from './save-file.ts'

/**
 * A CSV export (a download route of the contract, through the API client's `download`): `run` fetches the file and
 * saves it under the server's name, or shows the refusal; `busy` while it is under way.
 */
export function useExport(download: () => Promise<{ file: Blob; name: string }>) {
  const [busy, setBusy] = useState(false)
  const run = async () => {
    setBusy(true)
    try {
      const { file, name } = await download()
      saveFile(file, name)
    } catch (error) {
      reportActionError(error)
    } finally {
      setBusy(false)
    }
  }
  return { busy, run }
}
