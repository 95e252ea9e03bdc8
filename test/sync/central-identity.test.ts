import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { describe, expect, it } from 'vitest';
import type { RunningService } from '../../src/server/http/server';
import { CentralIdentityError, CentralRedirectError } from '../../src/server/sync/client';
import { CENTRAL_NOT_CHANGED } from '../../src/server/sync/settings';
import {
  api,
  closedAfterEach,
  DEVICES,
  orderByCode,
  signIn,
  starters,
  startWorkstation,
  syncUntilQuiet,
} from './helpers/cluster';

const running = closedAfterEach();
const start = starters(running);
const OPEN = 'PS-SUM-2611001';

/** A loopback HTTP server answering every request with `answer`; it records what it got. */
async function loopbackServer(
  answer: (request: IncomingMessage, body: string) => { status: number; headers?: object },
) {
  const received: { method: string; url: string; body: string }[] = [];
  const server: Server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      received.push({ method: request.method!, url: request.url!, body });
      const { status, headers } = answer(request, body);
      response.writeHead(status, { ...headers, 'content-type': 'application/json' });
      response.end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  const handle = {
    url: `http://127.0.0.1:${port}`,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  running.push(handle);
  return handle;
}

const poOnCentral = async (central: RunningService) => (await orderByCode(central, OPEN)).po_number;

describe('the sync client trusts one central', () => {
  it('refuses redirects: a 307 cannot re-post the device secret elsewhere', async () => {
    const elsewhere = await loopbackServer(() => ({ status: 200 }));
    const redirector = await loopbackServer((request) => ({
      status: 307,
      headers: { location: `${elsewhere.url}${request.url}` },
    }));
    const w1 = await startWorkstation(redirector.url, DEVICES.w1);
    running.push(w1);
    const client = w1.context.sync!.client!;
    await client.syncNow();
    expect(client.lastError).toBeInstanceOf(CentralRedirectError);
    // The redirector saw session requests only (the loop's first round and this one); the
    // server it pointed to got nothing at all.
    expect(redirector.received.length).toBeGreaterThan(0);
    for (const request of redirector.received) {
      expect(`${request.method} ${request.url}`).toBe('POST /api/sync/v1/session');
    }
    expect(elsewhere.received).toEqual([]);
    // Shown on the Sync screen as the status's last_error (nobody can sign in here yet: the
    // users come with the first pull).
    expect((client.lastError as Error).message).toBe(
      `The central service answered 307 with a redirect to ${elsewhere.url}/api/sync/v1/session; sync never follows redirects: set the central's own URL in Settings`,
    );
  });

  it('a session answer that names no epoch is not the pinned central: nothing is pushed or pulled', async () => {
    let answering = false;
    const received: string[] = [];
    const impostor = createServer((request, response) => {
      request.resume();
      request.on('end', () => {
        received.push(`${request.method} ${request.url}`);
        const session = answering && request.url === '/api/sync/v1/session';
        response.writeHead(session ? 200 : 503, { 'content-type': 'application/json' });
        response.end(session ? JSON.stringify({ token: 'forged', expires_in: 3600 }) : '{}');
      });
    });
    await new Promise<void>((resolve) => impostor.listen(0, '127.0.0.1', resolve));
    running.push({ close: () => new Promise<void>((resolve) => impostor.close(() => resolve())) });
    const { port } = impostor.address() as { port: number };
    const w1 = await startWorkstation(`http://127.0.0.1:${port}`, DEVICES.w1);
    running.push(w1);
    const client = w1.context.sync!.client!;
    // Pinned by an earlier pull from the real central.
    await w1.context.db
      .updateTable('sync_state')
      .set({ cursor: `${randomUUID()}:42:0123456789ab` })
      .execute();
    answering = true;
    received.length = 0;
    await client.syncNow();
    expect(client.lastError).toBeInstanceOf(CentralIdentityError);
    expect(received).toEqual(['POST /api/sync/v1/session']);
  });

  it('pins the central by its epoch: another one gets nothing until an install admin accepts it', async () => {
    const central = await start.central();
    const w1 = await start.workstation(central.url, DEVICES.w1);
    const auth = await signIn(w1);
    const client = w1.context.sync!.client!;

    // The central's database is replaced (a new epoch), with its signing key kept: the old
    // device token names the old epoch and is refused, and the new session names the new one.
    const lastSeq = async () =>
      (
        await central.context.db
          .selectFrom('sync_clients')
          .select('last_seq')
          .where('client_id', '=', DEVICES.w1.id)
          .executeTakeFirst()
      )?.last_seq ?? 0;
    const seqBefore = await lastSeq();
    // Nothing to accept while the central is the pinned one (a reset would cost a full pull).
    const early = await api(w1, auth, 'POST', '/api/sync/v1/settings/accept-central');
    expect(early.status).toBe(409);
    expect(early.body.message).toBe(CENTRAL_NOT_CHANGED);
    const pinnedCursor = (
      await w1.context.db.selectFrom('sync_state').select('cursor').executeTakeFirstOrThrow()
    ).cursor;
    expect(pinnedCursor).not.toBeNull();
    const newEpoch = randomUUID();
    await central.context.db.updateTable('sync_meta').set({ epoch: newEpoch }).execute();

    const edit = await api(w1, auth, 'PUT', '/api/v1/orders', {
      picksheet_code: OPEN,
      po_number: 'PO-NOT-FOR-A-STRANGER',
    });
    expect(edit.status).toBe(200);
    await client.syncNow();
    expect(client.lastError).toBeInstanceOf(CentralIdentityError);
    // Nothing went up, nothing came down.
    expect(await lastSeq()).toBe(seqBefore);
    expect(await poOnCentral(central)).not.toBe('PO-NOT-FOR-A-STRANGER');
    const status = await api(w1, auth, 'GET', '/api/sync/v1/status');
    expect(status.body.pending_mutations).toBe(1);
    expect(status.body.last_error).toBe(
      'The central service is not the one this workstation synced with (its database was replaced, or the URL now leads elsewhere); nothing is sent until an admin accepts it under Settings → Sync with a central service',
    );
    // It stays refused round after round.
    await client.syncNow();
    expect(client.lastError).toBeInstanceOf(CentralIdentityError);
    expect(await lastSeq()).toBe(seqBefore);

    const settings = await api(w1, auth, 'GET', '/api/sync/v1/settings');
    expect(settings.body.data).toMatchObject({ central_changed: true, can_change: true });

    // The explicit reset: an install admin (the demo admin administers Reno, this device's
    // only facility) accepts the new central.
    const accepted = await api(w1, auth, 'POST', '/api/sync/v1/settings/accept-central');
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
    expect(accepted.body.message).toBe(
      'The new central service is accepted; syncing starts over with it',
    );
    await syncUntilQuiet(w1);
    expect(await poOnCentral(central)).toBe('PO-NOT-FOR-A-STRANGER');
    const state = await w1.context.db
      .selectFrom('sync_state')
      .select('cursor')
      .executeTakeFirstOrThrow();
    expect(state.cursor?.startsWith(`${newEpoch}:`)).toBe(true);
    const after = await api(w1, auth, 'GET', '/api/sync/v1/settings');
    expect(after.body.data).toMatchObject({ central_changed: false });
  });
});
