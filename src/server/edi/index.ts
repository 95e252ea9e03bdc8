/** What other features may use of edi: they import it from here, never from its files (ARCHITECTURE.md). */
export { ediDocumentRoutes } from './documents-routes';
export { startOrderDocumentDrainer } from './drainer';
export { ediInboundRoutes } from './inbound-routes';
export { ediInboxRoutes } from './inbox-routes';
export { pollInboundFolders, startInboundPoller } from './inbound-poller';
export { recordTooLarge } from './inbound-too-large';
export { sendDueDocuments } from './send';
export { announceShipDocuments, releaseShipDocuments } from './ship-answer';
export { queueShipDocuments, type QueuedDocument } from './ship-documents';
export { writeInterchange, type Segment, type InterchangeInput } from './x12/writer';
export { queueTrackingUpdates, type TrackingSends } from './tracking-updates';
export { ingestInterchange } from './ingest';
export { acknowledgeOrder, invoiceOrder } from './order-replies';
