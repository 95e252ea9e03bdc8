/**
 * Issue 18 item 9: a NUL byte in the transaction log's search answered 500. Every query parameter
 * of every read route (from the OpenAPI document, so a new route is covered without editing this
 * file) gets control characters, lone surrogates and very long values; each must answer in the
 * envelope below 500. Bounded: one request per route, parameter and value, in-process.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { importDemoWorkspace } from '../../src/server/seed/demo';
import { describeEngines } from '../helpers/engines';
import { createTestService, TEST_PASSWORD_COST, type TestService } from '../helpers/service';
import { ANY_ID, demoPathValues } from './fuzz/demo-ids';

/** Raw, already percent-encoded query values: some cannot pass encodeURIComponent at all. */
const HOSTILE_VALUES: Record<string, string> = {
  nul: '%00',
  'nul inside text': 'PO%00123',
  'start of heading': '%01',
  'unit separator': 'a%1Fb',
  delete: '%7F',
  'nul in a list': encodeURIComponent('0b000000-0000-4000-8000-000000000001,') + '%00',
  'lone high surrogate (CESU bytes)': '%ED%A0%80',
  'lone low surrogate (CESU bytes)': '%ED%B0%80',
  'percent-u surrogate': '%uD800',
  'invalid UTF-8': '%C3%28',
  'lone percent': '%',
  'very long': 'x'.repeat(100_000),
  'very long digits': '9'.repeat(5_000),
  'very long with NUL': 'y'.repeat(10_000) + '%00',
};

const PATH_VALUES = demoPathValues();

interface Parameter {
  name: string;
  in: string;
}
interface OpenApi {
  paths: Record<string, { get?: { parameters?: Parameter[] } }>;
}

describeEngines('hostile query values never answer 500', (engine) => {
  let svc: TestService;
  let token: string;
  let readRoutes: { path: string; query: string[] }[];

  beforeAll(async () => {
    svc = await createTestService({ engine });
    await importDemoWorkspace(svc.ctx.db, { passwordCost: TEST_PASSWORD_COST });
    token = await svc.login('demo@example.com', 'demo-password');
    // A carton of the shipped order, so its label route reaches the query too.
    const carton = await svc.ctx.db
      .selectFrom('cartons')
      .select('id')
      .where('order_id', '=', PATH_VALUES.order_id!)
      .limit(1)
      .executeTakeFirstOrThrow();
    PATH_VALUES.unit_id = carton.id;
    const doc = (await svc.app.inject({ method: 'GET', url: '/api/openapi.json' })).json<OpenApi>();
    readRoutes = Object.entries(doc.paths)
      .filter(([, item]) => item.get)
      .map(([path, item]) => ({
        path: path.replace(/\{(\w+)\}/g, (_m, name: string) => PATH_VALUES[name] ?? ANY_ID),
        query: (item.get?.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name),
      }));
  }, 60_000);
  afterAll(() => svc.close());

  it('the read routes and their query parameters are found in the OpenAPI document', () => {
    expect(readRoutes.length).toBeGreaterThan(20);
    expect(readRoutes.find((r) => r.path === '/api/transactions')?.query).toContain('search');
  });

  it('a NUL byte in the transaction log search answers 400 in the envelope', async () => {
    const response = await svc.app.inject({
      method: 'GET',
      url: '/api/transactions?search=PO%00123',
      headers: { authorization: token },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ error: { code: 'INVALID_REQUEST' } });
  });

  it('every query parameter of every read route, with every hostile value', async () => {
    const failures: string[] = [];
    let tried = 0;
    for (const route of readRoutes) {
      for (const name of route.query) {
        for (const [label, value] of Object.entries(HOSTILE_VALUES)) {
          const url = `${route.path}?${encodeURIComponent(name)}=${value}`;
          tried += 1;
          const response = await svc.app.inject({
            method: 'GET',
            url,
            headers: { authorization: token },
          });
          if (response.statusCode >= 500) {
            failures.push(
              `${route.path} ${name} (${label}): ${response.statusCode} ${response.body.slice(0, 200)}`,
            );
          } else if (response.statusCode >= 400) {
            // Refusals come in the envelope, with a message a person can read.
            const body = response.json<{ message?: unknown; error?: { code?: unknown } }>();
            if (typeof body.message !== 'string' || typeof body.error?.code !== 'string') {
              failures.push(
                `${route.path} ${name} (${label}): no envelope: ${response.body.slice(0, 200)}`,
              );
            }
          }
        }
      }
    }
    // Every parameter was tried: dozens of them across the read routes.
    expect(tried).toBeGreaterThan(40 * Object.keys(HOSTILE_VALUES).length);
    expect(failures).toEqual([]);
  }, 240_000);
});
