import { tokenIcon } from '@solpledge/contract/client'

/** A token's icon (an SVG the app ships, see tokenIcon), decorative: the symbol is always written beside it. */
export function TokenIcon({ symbol }: { symbol: string }) {
  return <img className="token-icon" src={tokenIcon(symbol)} alt="" width={24} height={24} aria-hidden="true" />
}
