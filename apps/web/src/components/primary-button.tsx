import type { ComponentProps } from 'react'
import './primary-button.css'

/** The purple-to-blue gradient button (SPEC §2); `disabled` gives the dimmed state. */
export function PrimaryButton({ className, type = 'button', ...props }: ComponentProps<'button'>) {
  return <button type={type} className={className ? `primary-button ${className}` : 'primary-button'} {...props} />
}
