/** What other features may use of billing: they import it from here, never from its files (ARCHITECTURE.md). */
export { importSeedBilling } from './seed';
