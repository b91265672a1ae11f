// The public entry of modules/config: other modules import only what is exported here (docs/architecture.md).
export { PRODUCTION_BUSINESS_CONFIG } from './defaults.ts'
export { rateHistory } from './rate-history.ts'
export {
  checkBusinessConfig,
  getBusinessConfig,
  QUOTE,
  seedBusinessConfig,
  setBusinessConfig,
  storedVersion,
} from './service.ts'
