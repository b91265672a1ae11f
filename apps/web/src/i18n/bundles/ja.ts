// One language's strings in one chunk: the interface's and the contract's error catalogue (lib/i18n.ts).
export { ja as msg } from '@solpledge/contract/messages/ja'
export { default as ui } from '../ja.json'
