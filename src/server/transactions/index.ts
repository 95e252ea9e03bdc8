/** What other features may use of transactions: they import it from here, never from its files (ARCHITECTURE.md). */
export { importSeedTransactions } from './seed';
export { TRANSACTION_COLUMNS } from './queries';
export { inCountLockOrder } from './count-lock-order';
