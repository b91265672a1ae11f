export * from './api.ts'
export * from './envelope.ts'
export * from './i18n.ts'
export * from './messages/index.ts'
