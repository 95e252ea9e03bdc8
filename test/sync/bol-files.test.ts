import { rmSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { documentPath } from '../../src/server/core/file-store';
import type { RunningService } from '../../src/server/http/server';
import { BOL_FILE_NOT_SYNCED } from '../../src/server/orders/bol';
import { makePdf } from '../orders/bol-support';
import { api, closedAfterEach, DEVICES, signIn, starters, syncUntilQuiet } from './helpers/cluster';

const running = closedAfterEach();
const start = starters(running);

const ORDER = '0d000000-0000-4000-8000-000000000001'; // PS-SUM-2611001, Reno

describe('sync of BOL files', () => {
  it('a BOL uploaded on one workstation goes up with its file and the other workstation fetches it', async () => {
    const central = await start.central();
    const proxy2 = await start.proxyTo(central);
    const w1 = await start.workstation(central.url, DEVICES.w1);
    const w2 = await start.workstation(proxy2.url, DEVICES.w2);
    const pdf = await makePdf('BOL synced');
    const auth1 = await signIn(w1);
    const auth2 = await signIn(w2);
    proxy2.setMode('drop');
    const upload = await api(w1, auth1, 'POST', `/api/documents/bol/${ORDER}`, {
      file_content: pdf.toString('base64'),
      file_name: 'BOL-1.pdf',
      bill_of_lading_number: 'BOL-1',
    });
    expect(upload.status).toBeLessThan(300);
    await syncUntilQuiet(w1);
    const version = await central.context.db
      .selectFrom('order_bol_versions')
      .select(['id', 'sha256'])
      .where('order_id', '=', ORDER)
      .executeTakeFirstOrThrow();
    const fileOn = async (service: RunningService, auth: string) => {
      const response = await fetch(`${service.url}/api/v1/orders/${ORDER}/bol/${version.id}/file`, {
        headers: { authorization: auth },
      });
      return { status: response.status, bytes: Buffer.from(await response.arrayBuffer()) };
    };
    const onCentral = await fileOn(central, await signIn(central));
    expect(onCentral.status).toBe(200);
    expect(onCentral.bytes.equals(pdf)).toBe(true);

    proxy2.setMode('pass');
    await syncUntilQuiet(w2);
    const onW2 = await fileOn(w2, auth2);
    expect(onW2.status).toBe(200);
    expect(onW2.bytes.equals(pdf)).toBe(true);

    // A row whose file has not come yet (here: removed) answers 404 saying so, and is fetched.
    rmSync(documentPath(w2.context.dataDir, version.sha256), { force: true });
    proxy2.setMode('drop');
    const early = await api(w2, auth2, 'GET', `/api/v1/orders/${ORDER}/bol/${version.id}/file`);
    expect(early).toMatchObject({ status: 404, body: { message: BOL_FILE_NOT_SYNCED } });
    proxy2.setMode('pass');
    await syncUntilQuiet(w2);
    expect((await fileOn(w2, auth2)).bytes.equals(pdf)).toBe(true);
  }, 60_000);
});
