import { createHash } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Engine } from '../../src/server/db/engine';
import type { PullPage } from '../../src/server/sync/protocol';
import { describeEngines } from '../helpers/engines';
import { DEVICES, startCentral, type TestCentral } from './helpers/cluster';
import { signInDevice, syncCall } from './helpers/raw-push';

/**
 * A cursor made under older scope rules starts over (a reset page), so a device drops the rows
 * those rules sent it and the current ones do not: rules 2 still sent another organisation's
 * inbound EDI log rows brand-wide (decision 0226; sync/pull.ts SCOPE_RULES).
 */
describeEngines('a cursor made under older scope rules', (engine: Engine) => {
  let central: TestCentral;
  let auth: string;
  beforeAll(async () => {
    central = await startCentral({ engine });
    auth = await signInDevice(central.url, DEVICES.w1);
  });
  afterAll(async () => {
    await central?.close();
  });

  const pull = async (cursor?: string) => {
    const query = cursor ? `&cursor=${encodeURIComponent(cursor)}` : '';
    const answer = await syncCall(central.url, `/api/sync/v1/pull?limit=5000${query}`, { auth });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    return answer.body as unknown as PullPage;
  };
  /** The cursor's scope tag as the rules of `version` made it. */
  const tagOf = (version: number) =>
    createHash('sha256')
      .update(`${version}:${[...DEVICES.w1.facility_ids].sort().join(',')}`)
      .digest('hex')
      .slice(0, 12);

  it('rules 2 and 3: the old cursor starts over, the current one goes on', async () => {
    let page = await pull();
    expect(page.reset).toBe(true);
    while (page.more) page = await pull(page.cursor);
    const [epoch, version, tag] = page.cursor.split(':');
    expect(tag).toBe(tagOf(3));
    expect((await pull(page.cursor)).reset).toBe(false);
    const before = await pull(`${epoch}:${version}:${tagOf(2)}`);
    expect(before.reset).toBe(true);
    expect(before.changes.length).toBeGreaterThan(0);
  });
});
