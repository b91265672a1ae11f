// One language's strings in one chunk: the interface's and the contract's error catalogue (lib/i18n.ts).
export { zh as msg } from '@solpledge/contract/messages/zh'
export { default as ui } from '../zh.json'
