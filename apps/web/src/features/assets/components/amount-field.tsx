import type { AssetBalance } from '@solpledge/contract/client'
import { useTranslation } from 'react-i18next'
import { AmountInput, AmountSuffix } from '@/components/amount-input.tsx'

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
export function AmountField({ name, asset, value, onChange, max, disabled }: AmountFieldProps) {
  const { t } = useTranslation()
  const id = `${name}-amount`
  return (
    <>
      <label className="amount-form-label" htmlFor={id}>
        {t('assets.amountField.label')}
      </label>
      <AmountInput
        id={id}
        testId={id}
        value={value}
        onChange={onChange}
        placeholder={t('assets.amountField.placeholder')}
        disabled={disabled}
        suffix={
          <AmountSuffix
            unit={asset.symbol}
            max={max}
            decimals={asset.decimals}
            label={t('assets.amountField.max')}
            testId={`${name}-max`}
            disabled={disabled}
            onMax={onChange}
          />
        }
      />
    </>
  )
}
