import type { ExpressionBuilder } from 'kysely';
import type { Db } from '../db/db';
import type { Database, TransactionsTable } from '../db/schema';

/** The transaction log as the list's statements read it: aliased `t`, on either engine. */
export const allTransactions = (db: Db) => db.selectFrom('transactions as t');

/** A query over the log's rows (`t`), before its select list; what the filters apply to. */
export type LogRows = ReturnType<typeof allTransactions>;

/** Expressions over a log row `t`. */
export type LogRowExpressions = ExpressionBuilder<Database & { t: TransactionsTable }, 't'>;
