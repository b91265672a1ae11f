/**
 * The one error catalogue (DESIGN.md §6): every user-facing message of SPEC §8 and every server `msg`.
 * Placeholders use i18next's {{name}} syntax so the web app can load this catalogue as it is.
 */
export const en = {
  // Server: generic
  'common.success': 'Success',
  'error.invalidParams': 'Invalid request: {{detail}}',
  'error.malformedJson': 'The request body is not valid JSON',
  'error.bodyTooLarge': 'The request body is too large',
  'error.unsupportedMediaType': 'The request must be sent as JSON',
  'error.routeNotFound': 'Unknown API path',
  'error.rateLimited': 'Too many requests, please try again in a moment',
  'error.internal': 'Something went wrong, please try again',
  'error.sessionInvalid': 'Your session has expired, please log in again',
  // Server: login
  'auth.loginSuccess': 'Login successful',
  'auth.invalidAddress': 'Invalid wallet address',
  'auth.invalidLoginType': 'Unsupported login type',
  'auth.invalidSignatureFormat': 'The signature must be hex-encoded',
  'auth.invalidSignature': 'The signature does not match the wallet address',
  'auth.invalidMessage': 'The sign-in message is not valid, please sign again',
  'auth.messageMismatch': 'The sign-in message was made for another address or site',
  'auth.nonceExpired': 'The sign-in message has expired or was already used, please sign again',
  'auth.notBound': 'Please enter an invitation code to bind your referrer',
  'auth.selfInvite': 'You cannot use your own address as the invitation code',
  'auth.unknownInviter': 'The invitation code does not belong to a registered user',
  // Client: SPEC §8 user messages
  'wallet.failedQueryBalance': 'Failed to query balance.',
  'wallet.failedTokenBalance': 'Failed to get token balance.',
  'wallet.failedBalance': 'Failed to get balance.',
  'wallet.recipientAccountExists': 'Recipient token account already exists.',
  'wallet.recipientAccountCreated': 'Recipient token account does not exist, a new account will be created.',
  'wallet.tokenTransferFailed': 'Token transfer failed.',
  'pledge.exceedsBalance': 'Staking amount exceeds available balance.',
  'common.insufficientBalance': 'Insufficient balance.',
  'common.failedConfig': 'Failed to get configuration.',
  'node.purchased': 'Node purchased.',
  'wallet.senderNoTokenAccount': 'The sender does not have the token account.',
  'wallet.confirmationFailed': 'Transaction confirmation failed.',
  'wallet.transactionFailed': 'Transaction failed.',
  'wallet.sendFailed': 'Transaction failed to send.',
  'wallet.connectFailed': 'Connection failed.',
  'wallet.signFailed': 'Signature failed.',
  'wallet.switchWallet': 'Please switch solana wallet.',
  'wallet.phantomNotInstalled': 'Phantom wallet not installed',
  'common.copyFailed': 'Copy Failed, Please Copy Manually',
  'trade.cancelFailed': 'Failed to withdraw order.',
  'assets.rechargeUnsupported': 'This asset does not support recharge.',
  'assets.withdrawUnsupported': 'This asset does not support withdrawal.',
  // Client: SPEC §8 success messages
  'pledge.success': 'Staking Successful',
  'assets.rechargeSuccess': 'Recharge successfully',
  'trade.cancelSuccess': 'Revocation successfully',
  'common.copySuccess': 'Copy Successful',
  'common.copyPrompt': 'Copy to clipboard: {{shortcut}}, Enter',
} as const

export type MessageKey = keyof typeof en
export type Catalogue = Record<MessageKey, string>
