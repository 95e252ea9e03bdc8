import { describe, expect, it } from 'vitest';
import { problemsOf } from '../../src/renderer/src/screens/transactions/TransactionFilters';
import { deviceIdSchema } from '../../src/shared/sync-settings';

// Issue 19, words a clerk does not speak: "An order ID is a UUID." and "Must be a UUID, like …".
describe('ids are explained in clerk language', () => {
  it('a mistyped order or transaction ID says what to do instead, without "UUID"', () => {
    const problems = problemsOf({ q: '', transaction: 'abc', order: 'PO-4500123', po: '' });
    expect(problems.order).toBe(
      'That is not an order ID. To find an order by its PO number or picksheet code, use Search.',
    );
    expect(problems.transaction).toBe(
      'That is not a transaction ID. Copy it from a transaction’s details (open its row).',
    );
    for (const text of Object.values(problems)) expect(text).not.toMatch(/UUID/);
    expect(
      problemsOf({
        q: '',
        transaction: '6F1C2A3B-4D5E-4F60-8A7B-9C0D1E2F3A4B',
        order: '6f1c2a3b-4d5e-4f60-8a7b-9c0d1e2f3a4b',
        po: '',
      }),
    ).toEqual({});
  });

  it('a device id that is not one names where it comes from', () => {
    const result = deviceIdSchema.safeParse('dock-2');
    expect(result.success).toBe(false);
    const message = result.error!.issues[0]!.message;
    expect(message).toBe(
      'must be the device ID the central service gave this workstation, written like 6f1c2a3b-4d5e-4f60-8a7b-9c0d1e2f3a4b',
    );
    expect(message).not.toMatch(/UUID/);
  });
});
