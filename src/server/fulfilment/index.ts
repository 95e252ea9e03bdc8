/** What other features may use of fulfilment: they import it from here, never from its files (ARCHITECTURE.md). */
export { findVisibleBrand, leaseSerialBlock, serialsLeft } from './queries';
export { serialCapacity } from './sscc';
export { plural } from './views';
