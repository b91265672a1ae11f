import { UPLOAD_MAX_BYTES, UPLOAD_TYPES } from '@solpledge/contract'
import { adminApi } from '@solpledge/contract/admin'
import { useMutation } from '@tanstack/react-query'
import { useRef } from 'react'
import { useTranslation } from 'react-i18next'
import { adminUpload } from '@/admin/lib/api-client.ts'
import { reportActionError } from '@/lib/report-action-error.ts'
import { toast } from '@/lib/toast.ts'

/** Why a picked file is refused before it is sent (the server checks its content again). */
function uploadProblem(file: { type: string; size: number }): 'type' | 'size' | null {
  if (!(UPLOAD_TYPES as readonly string[]).includes(file.type)) return 'type'
  if (file.size > UPLOAD_MAX_BYTES) return 'size'
  return null
}

/**
 * Picks an image and uploads it (multipart, field 'video': docs/admin.md#image-upload); `onUploaded` gets the URL it
 * is served at. Type and size are checked here first so a wrong file is refused at once.
 */
export function ImageUpload({ onUploaded, disabled, testId }: ImageUploadProps) {
  const { t } = useTranslation('admin')
  const input = useRef<HTMLInputElement>(null)
  const upload = useMutation({
    mutationFn: (file: File) => adminUpload(adminApi.adminUpload, file, file.name),
    onSuccess: (data) => {
      toast.success(t('content.uploaded'))
      onUploaded(data.url)
    },
    onError: (error) => reportActionError(error),
  })
  const pick = (file: File | undefined) => {
    if (!file) return
    const problem = uploadProblem(file)
    if (problem)
      return toast.error(t(`content.uploadProblems.${problem}`, { max: `${UPLOAD_MAX_BYTES / 1024 / 1024} MB` }))
    upload.mutate(file)
  }
  return (
    <>
      <input
        ref={input}
        type="file"
        accept={UPLOAD_TYPES.join(',')}
        hidden
        data-testid={testId}
        onChange={(event) => {
          pick(event.target.files?.[0])
          event.target.value = ''
        }}
      />
      <button
        type="button"
        className="admin-button"
        disabled={disabled || upload.isPending}
        onClick={() => input.current?.click()}
      >
        {upload.isPending ? t('content.uploading') : t('content.upload')}
      </button>
    </>
  )
}

interface ImageUploadProps {
  onUploaded: (url: string) => void
  disabled?: boolean
  testId: string
}
