// The public entry of modules/withdrawals: other modules import only what is exported here (docs/architecture.md).
export { PAYOUT_LAMPORTS } from './hot-wallet.ts'
export { processWithdrawals, type SenderStep, senderInstance } from './sender.ts'
export { approveWithdrawal, presentWithdrawal, rejectInReview } from './service.ts'
