import type { AssetBalance } from '@solpledge/contract/client'
import { useTranslation } from 'react-i18next'
import { AmountField as Field } from '@/components/amount-input.tsx'

interface AmountFieldProps {
  /** Names the field and its test ids: `${name}-amount`, `${name}-max`. */
  name: 'recharge' | 'withdraw'
  asset: AssetBalance
  value: string
  onChange: (text: string) => void
  /** Base units the Max button fills in; no button while unknown or nothing. */
  max: bigint | null | undefined
  disabled: boolean
}

/** The amount field of the top-up and withdraw dialogs: a label, the asset's symbol and a Max button. */
export function AmountField({ name, asset, ...field }: AmountFieldProps) {
  const { t } = useTranslation()
  return (
    <Field
      name={name}
      label={t('assets.amountField.label')}
      placeholder={t('assets.amountField.placeholder')}
      maxLabel={t('assets.amountField.max')}
      unit={asset.symbol}
      decimals={asset.decimals}
      {...field}
    />
  )
}
