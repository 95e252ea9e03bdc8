/** What other features may use of inventory: they import it from here, never from its files (ARCHITECTURE.md). */
export { pendingDeliveriesNotice } from './history';
export { insertDocuments, listBrandConnections, takeControlNumbers } from './queries';
export { DRAIN_BATCH_SIZE, redeliverDue } from './redeliver';
export { sealStoredConnections } from './sealed-connections';
export {
  holdQueuedDeliveries,
  leaseDelivery,
  releaseDeliveryLease,
} from './transmission/delivery-lease';
export { documentFor, transportOf } from './transmission/documents';
export {
  reportQuietly,
  startOutboxDrainer,
  type OutboxDrainer,
  type OutboxDrainerOptions,
} from './transmission/outbox-drainer';
export { climbingDirectoryError, climbsOutOfDataDir } from './transmission/transports/file';
export { deliver } from './transmission/transports';
export { worthTryingAgain } from './transmission/target-faults';
export { hostKeyDigest, openSshFingerprint } from './transmission/transports/sftp';
export {
  defaultDeliveryPolicy,
  type AdviceLine,
  type DeliveryOutcome,
  type EdiSettings,
  type OutboundDocument,
  type TransportConfig,
} from './transmission/types';
