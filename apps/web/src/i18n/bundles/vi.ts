// One language's strings in one chunk: the interface's and the contract's error catalogue (lib/i18n.ts).
export { vi as msg } from '@solpledge/contract/messages/vi'
export { default as ui } from '../vi.json'
