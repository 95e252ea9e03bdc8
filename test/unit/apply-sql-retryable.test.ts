import { describe, expect, it } from 'vitest';
import { postgresApplySql } from '../../src/server/sync/apply-sql-postgres';

/**
 * Which PostgreSQL errors run a push's batch again (central-apply.ts, decision 0225): a deadlock's
 * victim and a serialization failure, nothing of which was written; never a refusal or a lost
 * connection. test/sync/push-deadlock-retry.test.ts drives a real deadlock.
 */
describe('a PostgreSQL push error that runs the batch again', () => {
  const sql = postgresApplySql({
    executeQuery: () => Promise.reject(new Error('no query expected')),
  });
  const error = (code?: string) => Object.assign(new Error('x'), code ? { code } : {});

  it('a deadlock (40P01) and a serialization failure (40001)', () => {
    expect(sql.retryable(error('40P01'))).toBe(true);
    expect(sql.retryable(error('40001'))).toBe(true);
  });

  it('not a constraint, a lost connection or an error without a code', () => {
    for (const code of ['23505', '23503', '57P01', '08006', undefined]) {
      expect(sql.retryable(error(code))).toBe(false);
    }
    expect(sql.retryable('not an error')).toBe(false);
    expect(sql.retryable(null)).toBe(false);
  });
});
