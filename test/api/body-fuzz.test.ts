/**
 * Every write route's body (from the OpenAPI document, so a new route is covered without editing
 * this file) gets hostile shapes: not an object, malformed JSON, and each top-level field set to a
 * wrong type, an absurd number, a very long or control-character string, a lone surrogate, a
 * nested object. Each must answer in the envelope below 500. Bounded: one request per route, field
 * and value, in-process, on the demo workspace (so ids in the path exist).
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { importDemoWorkspace } from '../../src/server/seed/demo';
import { describeEngines } from '../helpers/engines';
import { createTestService, TEST_PASSWORD_COST, type TestService } from '../helpers/service';
import { ANY_ID, demoPathValues } from './fuzz/demo-ids';
import { leafPaths, sampleOf, withValueAt, type JsonSchema } from './fuzz/sample-body';

/** Whole bodies sent as raw text with the route's content type. */
const HOSTILE_BODIES: Record<string, string> = {
  null: 'null',
  array: '[]',
  string: '"x"',
  number: '42',
  'malformed JSON': '{"a":',
  'prototype keys': '{"constructor":{"prototype":{"x":1}}}',
  'nested deeply': '['.repeat(5_000) + ']'.repeat(5_000),
  'NUL bytes': '\u0000\u0000',
};

/** Values for one field at a time. */
const HOSTILE_VALUES: Record<string, unknown> = {
  null: null,
  'a number': 123,
  'a huge number': 1e308,
  'a negative fraction': -1.5,
  'a string': 'x',
  'a long string': 'x'.repeat(100_000),
  'a NUL string': 'a\u0000b',
  'a lone surrogate': '\ud800',
  'an impossible date': '2026-13-45',
  'an array of nulls': [null, null],
  'an object': { nested: { deeper: [1, 'two', null] } },
  true: true,
};

const PATH_VALUES = demoPathValues();

interface Operation {
  requestBody?: { content: Record<string, { schema?: JsonSchema }> };
}
interface OpenApi {
  paths: Record<string, Record<string, Operation>>;
}
interface WriteRoute {
  method: 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: string;
  contentType: string;
  fields: string[];
  schema: JsonSchema | undefined;
}

describeEngines('hostile request bodies never answer 500', (engine) => {
  let svc: TestService;
  let token: string;
  let writeRoutes: WriteRoute[];

  beforeAll(async () => {
    svc = await createTestService({ engine });
    await importDemoWorkspace(svc.ctx.db, { passwordCost: TEST_PASSWORD_COST });
    token = await svc.login('demo@example.com', 'demo-password');
    const doc = (await svc.app.inject({ method: 'GET', url: '/api/openapi.json' })).json<OpenApi>();
    writeRoutes = Object.entries(doc.paths).flatMap(([path, item]) =>
      Object.entries(item)
        .filter(([method, operation]) => method !== 'get' && operation.requestBody)
        .map(([method, operation]): WriteRoute => {
          const [contentType, media] = Object.entries(operation.requestBody!.content)[0]!;
          return {
            method: method.toUpperCase() as WriteRoute['method'],
            path: path.replace(/\{(\w+)\}/g, (_m, name: string) => PATH_VALUES[name] ?? ANY_ID),
            contentType,
            fields: Object.keys(media.schema?.properties ?? {}),
            schema: media.schema,
          };
        }),
    );
  }, 60_000);
  afterAll(() => svc.close());

  const check = async (route: WriteRoute, label: string, payload: string, failures: string[]) => {
    const response = await svc.app.inject({
      method: route.method,
      url: route.path,
      headers: { authorization: token, 'content-type': route.contentType },
      payload,
    });
    const where = `${route.method} ${route.path} (${label})`;
    if (response.statusCode >= 500) {
      failures.push(`${where}: ${response.statusCode} ${response.body.slice(0, 200)}`);
    } else if (response.statusCode >= 400) {
      const body = response.json<{ message?: unknown; error?: { code?: unknown } }>();
      if (typeof body.message !== 'string' || typeof body.error?.code !== 'string') {
        failures.push(`${where}: no envelope: ${response.body.slice(0, 200)}`);
      }
    }
  };

  it('the write routes and their body fields are found in the OpenAPI document', () => {
    expect(writeRoutes.length).toBeGreaterThan(20);
    const acknowledge = writeRoutes.find((r) => r.path.endsWith('/acknowledge'));
    expect(acknowledge?.fields.length).toBeGreaterThan(0);
    expect(writeRoutes.some((r) => r.contentType === 'application/edi-x12')).toBe(true);
  });

  it('every write route, with every hostile body and every field set to every hostile value', async () => {
    const failures: string[] = [];
    let tried = 0;
    for (const route of writeRoutes) {
      for (const [label, payload] of Object.entries(HOSTILE_BODIES)) {
        tried += 1;
        await check(route, label, payload, failures);
      }
      if (route.contentType !== 'application/json') continue;
      for (const field of route.fields) {
        for (const [label, value] of Object.entries(HOSTILE_VALUES)) {
          tried += 1;
          await check(route, `${field}: ${label}`, JSON.stringify({ [field]: value }), failures);
        }
      }
    }
    expect(tried).toBeGreaterThan(20 * Object.keys(HOSTILE_BODIES).length);
    expect(failures).toEqual([]);
  }, 300_000);

  it('every JSON write route, from a plausible body, with each field in turn set to every hostile value', async () => {
    // Twice: for a shipped order (documents, labels) and for an open one (packing, editing).
    const open = await svc.ctx.db
      .selectFrom('orders')
      .select('id')
      .where('status', '=', 'Open')
      .limit(1)
      .executeTakeFirstOrThrow();
    const failures: string[] = [];
    let tried = 0;
    for (const orderId of [PATH_VALUES.order_id!, open.id]) {
      const ids = { ...PATH_VALUES, order_id: orderId, any: orderId } as Record<string, string>;
      const routes = writeRoutes
        .filter((r) => r.contentType === 'application/json')
        .map((r) => ({ ...r, path: r.path.replaceAll(PATH_VALUES.order_id!, orderId) }));
      for (const route of routes) {
        const body = sampleOf(route.schema, ids);
        tried += 1;
        await check(route, 'plausible body', JSON.stringify(body), failures);
        for (const path of leafPaths(body)) {
          for (const [label, value] of Object.entries(HOSTILE_VALUES)) {
            tried += 1;
            const payload = JSON.stringify(withValueAt(body, path, value));
            await check(route, `${path.join('.')}: ${label}`, payload, failures);
          }
        }
      }
    }
    expect(tried).toBeGreaterThan(2_000);
    expect(failures).toEqual([]);
  }, 600_000);
});
