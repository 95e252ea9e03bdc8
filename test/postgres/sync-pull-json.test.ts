import { CompiledQuery } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { openPostgres, type OpenedPostgres } from '../../src/server/db/postgres/open';
import { connectionRowForDevice } from '../../src/server/sync/connection-credentials';
import type { PullPage } from '../../src/server/sync/protocol';
import { postgresPull } from '../../src/server/sync/pull.postgres';
import { installPostgresStamps } from '../../src/server/sync/stamps.postgres';
import { REPLICATED_BY_NAME } from '../../src/server/sync/synced-tables';
import { cloneTemplate, type ClonedDatabase } from '../helpers/postgres/databases';

/*
 * The PostgreSQL pull sends rows as PostgreSQL writes them in JSON (pull-json.ts), spliced into
 * the page without decoding. The page must be byte for byte what JSON.stringify made of the page
 * when its rows were decoded by `pg` (before issue 17's pull work, and the SQLite central still):
 * floats in every notation, -0, NaN and Infinity, integers past 2^53, strings with quotes,
 * backslashes, control characters and other scripts, connections without their credentials.
 */
const postgres = inject('postgres');
const AT = '2026-01-01T00:00:00.000Z';
const FACILITY = 'f-json';
const DEVICE = { id: 'd-json', facilityIds: [FACILITY] };
const FLOATS = [
  0.1,
  1 / 3,
  123.456,
  1e-5,
  0.0001,
  1e14,
  1e15,
  1.5e300,
  -2.5e-7,
  'NaN',
  'Infinity',
  '-Infinity',
  '-0',
  0,
  null,
];
const INTEGERS = ['9007199254740993', '-9007199254740993', '1234567890123456', '-5', '0'];
const NAMES = [
  'plain',
  'quote " and backslash \\ and slash /',
  'tab\tnewline\nreturn\r',
  'control \u0001\u001f and del \u007f',
  'line sep \u2028 para \u2029',
  'ünïcødé ✓ 漢字 😀',
  '1:2e-3 looks like a number',
  '"NaN"',
];

describe.skipIf(!postgres)('PostgreSQL pull pages as JSON text', () => {
  let cloned: ClonedDatabase;
  let store: OpenedPostgres;
  const run = (text: string, ...values: unknown[]) =>
    store.db.executeQuery<Record<string, unknown>>(CompiledQuery.raw(text, values));

  beforeAll(async () => {
    cloned = await cloneTemplate(postgres!);
    store = await openPostgres(cloned.url, 4);
    await installPostgresStamps(store.db);
    await run(`INSERT INTO organizations (id, name) VALUES ('o-json', 'Org')`);
    await run(
      `INSERT INTO facilities (id, organization_id, name, external_facility_code)
      VALUES ($1, 'o-json', 'F', 'F')`,
      FACILITY,
    );
    await run(`INSERT INTO brands (id, name) VALUES ('b-json', 'Brand')`);
    await run(
      `INSERT INTO brand_facilities (brand_id, facility_id) VALUES ('b-json', $1)`,
      FACILITY,
    );
    for (const [i, name] of NAMES.entries()) {
      await run(`INSERT INTO retailers (id, name) VALUES ($1, $2)`, `r-${i}`, name);
    }
    await run(
      `INSERT INTO connections (id, organization_id, brand_id, retailer_id, kind, enabled,
        transport_json, sender)
      VALUES ('c-json', 'o-json', 'b-json', 'r-0', 'DIRECT_API', 1, $1, 'central')`,
      JSON.stringify({
        type: 'http',
        url: 'https://user:pw@example.invalid/x?key=1',
        headers: { a: 'b' },
      }),
    );
    await run(
      `INSERT INTO orders (id, brand_id, retailer_id, facility_id, picksheet_code, status,
        created_at, updated_at, po_number)
      VALUES ('o-1', 'b-json', 'r-1', $1, 'PS-1', 'Open', $2, $2, $3)`,
      FACILITY,
      AT,
      NAMES[3],
    );
    for (const [i, price] of FLOATS.entries()) {
      await run(
        `INSERT INTO order_po_lines (order_id, line_id, sku, quantity, unit_price)
        VALUES ('o-1', $1, $2, $3, $4::float8)`,
        `l-${i}`,
        NAMES[i % NAMES.length],
        INTEGERS[i % INTEGERS.length],
        price,
      );
      await run(
        `INSERT INTO pallets (id, order_id, status, created_at, height, weight)
        VALUES ($1, 'o-1', 'Open', $2, $3::float8, $4::float8)`,
        `p-${i}`,
        AT,
        price,
        FLOATS[(i + 3) % FLOATS.length],
      );
    }
  });
  afterAll(async () => {
    await store?.close();
    await cloned?.drop();
  });

  const pullPage = async (cursor: string | undefined) =>
    JSON.parse(
      (await postgresPull(store.db, { device: DEVICE, cursor, limit: 5000 })).json,
    ) as PullPage;

  /** The database, counting the statements run through it (BEGIN and COMMIT are not). */
  function counting() {
    const statements: string[] = [];
    const counted = store.db.withPlugin({
      transformQuery: (args) => args.node,
      transformResult: async (args) => {
        statements.push(args.queryId.queryId);
        return args.result;
      },
    });
    return { counted, statements };
  }

  /** The page as JSON.stringify wrote it from rows decoded by `pg` (the way before). */
  async function decodedPage(json: string): Promise<string> {
    const page = JSON.parse(json) as PullPage;
    for (const change of page.changes) {
      if (!change.row) continue;
      const table = REPLICATED_BY_NAME.get(change.t)!;
      const { rows } = await run(
        `SELECT * FROM ${change.t} WHERE ${table.key.map((k, i) => `${k}::text = $${i + 1}`).join(' AND ')}`,
        ...change.k.map(String),
      );
      change.row = change.t === 'connections' ? connectionRowForDevice(rows[0]!) : rows[0]!;
    }
    return JSON.stringify(page);
  }

  it('sends each page as JSON.stringify of the decoded rows, byte for byte', async () => {
    let cursor: string | undefined;
    let lines = 0;
    for (let pages = 0; pages < 100; pages++) {
      // Small pages: a page ends at a version boundary, so each holds one transaction's rows.
      const answer = await postgresPull(store.db, { device: DEVICE, cursor, limit: 3 });
      expect(answer.json).toBe(await decodedPage(answer.json));
      const page = JSON.parse(answer.json) as PullPage;
      lines += page.changes.filter((c) => c.t === 'order_po_lines').length;
      cursor = page.cursor;
      if (!answer.more) break;
    }
    expect(lines).toBe(FLOATS.length);
  });

  it('sends a row changed to odd values the same way, and a tombstone for a deleted one', async () => {
    const start = await pullPage(undefined);
    await run(`UPDATE pallets SET height = '-0'::float8, width = 1e-300 WHERE id = 'p-0'`);
    await run(`DELETE FROM pallets WHERE id = 'p-1'`);
    await run(`UPDATE retailers SET name = $1 WHERE id = 'r-0'`, `${NAMES.join('|')} ${AT}`);
    const answer = await postgresPull(store.db, {
      device: DEVICE,
      cursor: start.cursor,
      limit: 5000,
    });
    expect(answer.json).toBe(await decodedPage(answer.json));
    const page = JSON.parse(answer.json) as PullPage;
    expect(page.changes.map((c) => [c.t, c.k[0], c.deleted ?? false])).toEqual([
      ['pallets', 'p-0', false],
      ['pallets', 'p-1', true],
      ['retailers', 'r-0', false],
    ]);
    expect(page.changes[0]!.row).toMatchObject({ height: 0, width: 1e-300 });
  });

  it('keeps credentials out of a connection the device does not send over', async () => {
    const page = await pullPage(undefined);
    const connection = page.changes.find((c) => c.t === 'connections')!.row!;
    expect(JSON.parse(String(connection.transport_json))).toEqual({
      type: 'http',
      url: 'https://example.invalid/x',
    });
  });

  /**
   * The pull's page, and the same page written entry by entry by Node (the way before); `pages`
   * counts the page statements the first ran (two: its text may differ, so written by Node).
   */
  async function bothWays(cursor: string | undefined, limit = 5000) {
    let pages = 0;
    const counted = store.db.withPlugin({
      transformQuery: (args) => args.node,
      transformResult: async (args) => {
        if (args.result.rows[0] && 'changes' in args.result.rows[0]) pages += 1;
        return args.result;
      },
    });
    const request = { device: DEVICE, cursor, limit };
    const answer = await postgresPull(counted, request);
    const perRow = await postgresPull(store.db, { ...request, perRow: true });
    expect(answer.json).toBe(perRow.json);
    expect(answer.more).toBe(perRow.more);
    expect(answer.json).toBe(await decodedPage(answer.json));
    return { ...answer, pages };
  }

  /** Runs `statements` in one transaction, so their rows come in one page after `cursor`. */
  async function inOneTransaction(statements: [string, ...unknown[]][]) {
    const client = new pg.Client({ connectionString: cloned.url });
    await client.connect();
    try {
      await client.query('BEGIN');
      for (const [text, ...values] of statements) await client.query(text, values);
      await client.query('COMMIT');
    } finally {
      await client.end();
    }
  }

  it('writes every page the same in SQL and entry by entry', async () => {
    for (const limit of [3, 5000]) {
      let cursor: string | undefined;
      for (let pages = 0; pages < 100; pages++) {
        const answer = await bothWays(cursor, limit);
        cursor = (JSON.parse(answer.json) as PullPage).cursor;
        if (!answer.more) break;
      }
    }
  });

  it('writes a connection in a page of plain rows without its credentials', async () => {
    const start = await pullPage(undefined);
    await inOneTransaction([
      [`INSERT INTO retailers (id, name) VALUES ('r-plain', 'Plain')`],
      [
        `INSERT INTO connections (id, organization_id, brand_id, retailer_id, kind, enabled,
          transport_json, sender)
        VALUES ('c-plain', 'o-json', 'b-json', 'r-plain', 'DIRECT_API', 1, $1, 'central')`,
        JSON.stringify({ type: 'http', url: 'https://u:secret@example.invalid/p' }),
      ],
    ]);
    const answer = await bothWays(start.cursor);
    expect(answer.pages).toBe(1);
    expect(answer.json).not.toContain('secret');
    const page = JSON.parse(answer.json) as PullPage;
    expect(page.changes.map((c) => [c.t, c.k[0]])).toEqual([
      ['retailers', 'r-plain'],
      ['connections', 'c-plain'],
    ]);
  });

  it('writes a float in exponent notation and a negative zero as JSON.stringify does', async () => {
    for (const [value, written] of [
      ['1e-7', '"height":1e-7,'],
      ['-0', '"height":0,'],
      ['1e+300', '"height":1e+300,'],
    ] as const) {
      const start = await pullPage(undefined);
      await inOneTransaction([
        [`UPDATE pallets SET height = $1::float8 WHERE id = 'p-2'`, value],
        [`UPDATE retailers SET name = $1 WHERE id = 'r-2'`, `renamed for ${value}`],
      ]);
      const answer = await bothWays(start.cursor);
      expect(answer.pages).toBe(2);
      expect(answer.json).toContain(written);
    }
  });

  it('writes a key stored with escapes as JSON.stringify writes it', async () => {
    const start = await pullPage(undefined);
    // A key as a central copied from SQLite may hold it: the same id, written with escapes.
    await inOneTransaction([
      [`INSERT INTO retailers (id, name) VALUES ('r-esc', 'Escaped key')`],
      [`INSERT INTO retailers (id, name) VALUES ('r-"quoted"', 'Quoted key')`],
      [
        `UPDATE sync_row_versions SET row_key = $1 WHERE tbl = 'retailers' AND row_key = '["r-esc"]'`,
        String.raw`["r-\u0065sc"]`,
      ],
    ]);
    const answer = await bothWays(start.cursor);
    expect(answer.pages).toBe(2);
    expect(answer.json).toContain(`"k":["r-esc"]`);
    expect(answer.json).toContain(String.raw`"k":["r-\"quoted\""]`);
    expect(answer.json).not.toContain(String.raw`\u0065`);
  });

  it('answers a pull with nothing new in one statement, and records it', async () => {
    const other = new pg.Client({ connectionString: cloned.url });
    await other.connect();
    try {
      const first = await pullPage(undefined);
      // Another facility's write is nothing new for this device.
      await run(`INSERT INTO facilities (id, organization_id, name, external_facility_code)
        VALUES ('f-other', 'o-json', 'Other', 'O')`);
      await run(
        `INSERT INTO orders (id, brand_id, retailer_id, facility_id, picksheet_code, status,
          created_at, updated_at) VALUES ('o-other', 'b-json', 'r-1', 'f-other', 'PS-O', 'Open', $1, $1)`,
        AT,
      );
      const { counted, statements } = counting();
      const quiet = await postgresPull(counted, {
        device: DEVICE,
        cursor: first.cursor,
        limit: 5000,
        at: AT,
      });
      expect(statements).toHaveLength(1);
      const page = JSON.parse(quiet.json) as PullPage;
      expect(page).toMatchObject({ reset: false, more: false, changes: [], evictions: [] });
      expect(page.cursor).not.toBe(first.cursor);
      const { rows } = await run(
        `SELECT last_pull_at, pulled_version FROM sync_clients WHERE client_id = $1`,
        DEVICE.id,
      );
      const latest = await run(`SELECT max(version) AS v FROM sync_row_versions`);
      expect(rows[0]).toEqual({ last_pull_at: AT, pulled_version: latest.rows[0]!.v });
      // A facility-less row the scope rules decide on (a retailer) is not answered there.
      await run(`INSERT INTO retailers (id, name) VALUES ('r-new', 'New')`);
      statements.length = 0;
      const next = JSON.parse(
        (await postgresPull(counted, { device: DEVICE, cursor: page.cursor, limit: 5000 })).json,
      ) as PullPage;
      expect(next.changes.map((c) => c.k[0])).toEqual(['r-new']);
      expect(statements.length).toBeGreaterThan(1);
    } finally {
      await other.end();
    }
  });

  it('answers 50 parallel empty pulls with one cursor; a write committing late still arrives', async () => {
    const first = await pullPage(undefined);
    const other = new pg.Client({ connectionString: cloned.url });
    await other.connect();
    try {
      // An open transaction holds the watermark: its write and a later committed one wait.
      await other.query('BEGIN');
      const { rows } = await other.query<{ xid: string }>(
        `SELECT pg_current_xact_id()::text AS xid`,
      );
      await other.query(`INSERT INTO retailers (id, name) VALUES ('r-late', 'Late')`);
      await run(`INSERT INTO retailers (id, name) VALUES ('r-after', 'After')`);
      // Transactions of other test files' databases older than ours end soon; then xmin stays.
      const xmin = async () =>
        (await run(`SELECT pg_snapshot_xmin(pg_current_snapshot())::text AS x`)).rows[0]!.x;
      for (let i = 0; i < 300 && (await xmin()) !== rows[0]!.xid; i++) {
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(await xmin()).toBe(rows[0]!.xid);
      const { counted, statements } = counting();
      const answers = await Promise.all(
        Array.from({ length: 50 }, () =>
          postgresPull(counted, { device: DEVICE, cursor: first.cursor, limit: 5000, at: AT }),
        ),
      );
      expect(statements).toHaveLength(50);
      expect(new Set(answers.map((a) => a.json)).size).toBe(1);
      const quiet = JSON.parse(answers[0]!.json) as PullPage;
      expect(quiet).toMatchObject({ changes: [], more: false });
      expect(quiet.cursor).toContain(`:w${rows[0]!.xid}--0:`);
      await other.query('COMMIT');
      const late = await pullPage(quiet.cursor);
      expect(late.changes.map((c) => c.k[0])).toEqual(['r-late', 'r-after']);
      expect((await pullPage(late.cursor)).changes).toEqual([]);
    } finally {
      await other.end();
    }
  });
});
