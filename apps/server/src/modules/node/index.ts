// The public entry of modules/node: other modules import only what is exported here (docs/architecture.md).
export { findNodeLevel, myNodes, NODE_COIN, purchaseNode } from './service.ts'
