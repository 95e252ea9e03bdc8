import { afterEach, beforeEach, expect, it } from 'vitest';
import { openDatabase, type OpenedDatabase } from '../../src/server/db/database';
import { txId } from './fixtures';

/*
 * transactions_search_ids keeps copies of the filter and sort columns beside each search id (so a
 * broad search never reads the transactions it does not show); whatever statement writes the log,
 * the copies must equal the rows, and the index must find the current text only.
 */

let database: OpenedDatabase;
beforeEach(async () => {
  database = await openDatabase(':memory:');
  // Rows by hand, naming facilities and brands that need not exist.
  database.sqlite.pragma('foreign_keys = OFF');
});
afterEach(async () => {
  await database.close();
});

const all = (sql: string, ...params: unknown[]) => database.sqlite.prepare(sql).all(...params);
const run = (sql: string, ...params: unknown[]) => database.sqlite.prepare(sql).run(...params);

function insert(n: number, facility: string | null, error: string | null, at: string) {
  run(
    `INSERT INTO transactions (transaction_id, action_type, action_type_label, brand_id,
      retailer_id, facility_id, order_id, duration_ms, error_message, execution_status,
      request_method, request_url, created_at, updated_at)
      VALUES (?, 'SEND_ASN', 'Send asn', 'b1', 'r1', ?, 'o1', 5, ?, 'SUCCESS', 'POST', ?, ?, ?)`,
    txId(n),
    facility,
    error,
    `https://partner.example/asn/${n}`,
    at,
    at,
  );
}

function keysAgree() {
  const columns = `transaction_id, created_at, updated_at, facility_id, brand_id, retailer_id,
    order_id, action_type, execution_status`;
  expect(all(`SELECT ${columns}, has_error FROM transactions_search_ids ORDER BY 1`)).toEqual(
    all(`SELECT ${columns}, (error_message IS NOT NULL) AS has_error FROM transactions ORDER BY 1`),
  );
}

const search = (term: string) =>
  all(
    `SELECT m.transaction_id AS id FROM transactions_search s
      JOIN transactions_search_ids m ON m.id = s.rowid
      WHERE transactions_search MATCH ? ORDER BY 1`,
    `"${term}"`,
  ).map((row) => (row as { id: string }).id);

it('keeps the copied keys equal to the rows through inserts, updates and deletes', () => {
  insert(1, 'f1', null, '2026-01-01T10:00:00.000Z');
  insert(2, null, 'Bad Gateway', '2026-01-02T10:00:00.000Z');
  insert(3, 'f2', null, '2026-01-03T10:00:00.000Z');
  keysAgree();

  // Columns that are not searched: the keys follow, the index entry stays.
  run(
    `UPDATE transactions SET facility_id = 'f9', brand_id = NULL, retailer_id = 'r2',
      execution_status = 'FAILURE', action_type = 'SEND_INVOICE', created_at = ?, updated_at = ?
      WHERE transaction_id = ?`,
    '2025-12-31T00:00:00.000Z',
    '2026-02-01T00:00:00.000Z',
    txId(1),
  );
  keysAgree();
  expect(search('asn/1')).toEqual([txId(1)]);

  // Searched columns: error presence and the text both move.
  run(`UPDATE transactions SET error_message = 'Timeout QUOKKA' WHERE transaction_id = ?`, txId(3));
  run(`UPDATE transactions SET error_message = NULL WHERE transaction_id = ?`, txId(2));
  keysAgree();
  expect(search('quokka')).toEqual([txId(3)]);
  expect(search('bad gateway')).toEqual([]);

  // A new transaction id and order id: found by the new ones only.
  run(
    `UPDATE transactions SET transaction_id = ?, order_id = 'o7' WHERE transaction_id = ?`,
    txId(8),
    txId(3),
  );
  keysAgree();
  expect(search('quokka')).toEqual([txId(8)]);
  expect(search(txId(3).slice(-12))).toEqual([]);

  // An update that changes nothing leaves everything as it was.
  run(`UPDATE transactions SET request_url = request_url, facility_id = facility_id`);
  keysAgree();
  expect(search('partner.example')).toEqual([txId(1), txId(2), txId(8)].sort());

  run(`DELETE FROM transactions WHERE transaction_id = ?`, txId(8));
  keysAgree();
  expect(search('quokka')).toEqual([]);
});
