import type { ComponentProps } from 'react'
import './primary-button.css'

/** The purple-to-blue gradient button (docs/product.md#shared-elements); `disabled` gives the dimmed state. */
export function PrimaryButton({ className, type = 'button', ...props }: ComponentProps<'button'>) {
  return <button type={type} className={className ? `primary-button ${className}` : 'primary-button'} {...props} />
}
