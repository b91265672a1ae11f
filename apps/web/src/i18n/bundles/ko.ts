// One language's strings in one chunk: the interface's and the contract's error catalogue (lib/i18n.ts).
export { ko as msg } from '@solpledge/contract/messages/ko'
export { default as ui } from '../ko.json'
