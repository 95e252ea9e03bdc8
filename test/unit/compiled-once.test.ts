/**
 * Queries compiled once per engine and shape (src/server/db/compiled-once.ts) run with the values
 * of each call: never an earlier call's, also inside a transaction and with constants of their own.
 */
import { afterEach, expect, it } from 'vitest';
import { runCompiledOnce, slot, slots } from '../../src/server/db/compiled-once';
import { describeEngines } from '../helpers/engines';
import { createTestService, type TestService } from '../helpers/service';

describeEngines('queries compiled once', (engine) => {
  let svc: TestService | null = null;
  afterEach(async () => {
    await svc?.close();
    svc = null;
  });

  const seed = async () => {
    svc = await createTestService({ engine });
    const { db } = svc.ctx;
    await db
      .insertInto('organizations')
      .values(['o1', 'o2', 'o3'].map((id, i) => ({ id, name: `Org ${i + 1}` })))
      .execute();
    return db;
  };

  it('runs each call with its own values, per shape, in and out of a transaction', async () => {
    const db = await seed();
    const named = (ids: string[]) =>
      runCompiledOnce(
        db,
        `test.named:${ids.length}`,
        () =>
          db
            .selectFrom('organizations')
            .select(['id', 'name'])
            .where('id', 'in', slots(ids.length))
            .where('name', '!=', 'never a name')
            .orderBy('id'),
        ids,
      );
    expect(await named(['o1'])).toEqual([{ id: 'o1', name: 'Org 1' }]);
    expect(await named(['o3'])).toEqual([{ id: 'o3', name: 'Org 3' }]);
    expect((await named(['o2', 'o3'])).map((r) => r.id)).toEqual(['o2', 'o3']);
    expect((await named(['o1', 'o2'])).map((r) => r.id)).toEqual(['o1', 'o2']);
    const inTransaction = await db.transaction().execute((trx) =>
      runCompiledOnce(
        trx,
        'test.renamed',
        () =>
          trx
            .updateTable('organizations')
            .set({ name: slot(1) })
            .where('id', '=', slot(0))
            .returning(['id', 'name']),
        ['o2', 'Org two'],
      ),
    );
    expect(inTransaction).toEqual([{ id: 'o2', name: 'Org two' }]);
    expect(await named(['o2'])).toEqual([{ id: 'o2', name: 'Org two' }]);
  });
});
