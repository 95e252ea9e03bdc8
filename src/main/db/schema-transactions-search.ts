/** Tables of transaction search (FTS5 index kept in step with transactions) (migration-sets/transactions-search.ts). */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled in by that feature
export interface TransactionsSearchTables {}
