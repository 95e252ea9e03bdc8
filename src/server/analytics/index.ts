/** What other features may use of analytics: they import it from here, never from its files (ARCHITECTURE.md). */
export { activityTotals, packedTotals } from './queries';
