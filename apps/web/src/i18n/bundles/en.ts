// One language's strings in one chunk: the interface's and the contract's error catalogue (lib/i18n.ts).
export { en as msg } from '@solpledge/contract/messages/en'
export { default as ui } from '../en.json'
