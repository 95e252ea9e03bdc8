import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestService, type TestService } from '../helpers/service';

describe('OpenAPI description and API reference', () => {
  let svc: TestService;
  beforeAll(async () => {
    svc = await createTestService();
  });
  afterAll(() => svc.close());

  it('describes every route with title, version 1.0.0, the live origin, two servers as variables and bearer security', async () => {
    const response = await svc.app.inject({
      method: 'GET',
      url: '/api/openapi.json',
      headers: { host: '127.0.0.1:40123' },
    });
    expect(response.statusCode).toBe(200);
    const doc = response.json();
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.info).toMatchObject({
      title: 'Retail Fulfillment Integration Service',
      version: '1.0.0',
    });
    // The address the caller used comes first; production defaults to it, not to a fixed port.
    expect(doc.servers).toEqual([
      expect.objectContaining({ url: 'http://127.0.0.1:40123' }),
      expect.objectContaining({
        url: '{base_url}',
        variables: { base_url: { default: 'http://127.0.0.1:40123' } },
      }),
      expect.objectContaining({
        url: '{staging_url}',
        variables: { staging_url: expect.any(Object) },
      }),
    ]);
    expect(doc.components.securitySchemes.bearerAuth).toEqual({
      type: 'http',
      scheme: 'bearer',
      bearerFormat: 'JWT',
    });
    expect(doc.security).toEqual([{ bearerAuth: [] }]);
    for (const path of [
      '/api/auth/token',
      '/api/user-facilities/v1/facilities',
      '/api/retailer/v1/facility/{facility_id}',
      '/api/brand/v1/facility/{facility_id}',
      '/api/v1/inventory/brand/{brand_id}/facility/{facility_id}',
      '/api/v1/inventory/brand',
    ]) {
      expect(doc.paths[path], path).toBeDefined();
    }
    // The token route is public; the request body schema comes from the shared zod schema.
    const token = doc.paths['/api/auth/token'].post;
    expect(token.security).toEqual([]);
    expect(token.requestBody.content['application/json'].schema.required).toEqual([
      'email',
      'password',
    ]);
    const retailers = doc.paths['/api/retailer/v1/facility/{facility_id}'].get;
    expect(retailers.parameters).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ name: 'facility_id', in: 'path', required: true }),
        expect.objectContaining({ name: 'brand_id', in: 'query', required: false }),
      ]),
    );
  });

  it('names each path parameter whole, digits included, and lists it as a parameter', async () => {
    const doc = (await svc.app.inject({ method: 'GET', url: '/api/openapi.json' })).json<{
      paths: Record<string, Record<string, { parameters?: { name: string; in: string }[] }>>;
    }>();
    expect(Object.keys(doc.paths)).toContain('/api/sync/v1/files/{sha256}');
    for (const [path, item] of Object.entries(doc.paths)) {
      expect(path, path).not.toMatch(/\}[^/]/);
      const named = [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
      for (const operation of Object.values(item)) {
        const listed = (operation.parameters ?? []).filter((p) => p.in === 'path');
        expect(listed.map((p) => p.name).sort(), path).toEqual(named);
      }
    }
  });

  it('documents the inventory answers with their schemas, the 502 with its data', async () => {
    const doc = (await svc.app.inject({ method: 'GET', url: '/api/openapi.json' })).json();
    const schemaOf = (path: string, method: string, status: string) =>
      doc.paths[path][method].responses[status]?.content?.['application/json']?.schema;
    const send = '/api/v1/inventory/brand/{brand_id}/facility/{facility_id}';
    expect(schemaOf(send, 'post', '502').properties).toHaveProperty('data');
    expect(schemaOf(send, 'post', '200').properties.data.properties).toHaveProperty('results');
    expect(schemaOf(`${send}/preview`, 'post', '200').properties.data.properties).toHaveProperty(
      'connections',
    );
    expect(
      schemaOf('/api/v1/inventory/snapshots', 'get', '200').properties.data.properties,
    ).toHaveProperty('items');
    expect(
      schemaOf('/api/v1/inventory/snapshots/{snapshot_id}', 'get', '200').properties.data
        .properties,
    ).toHaveProperty('items');
    expect(
      schemaOf('/api/v1/inventory/deliveries/{delivery_id}/retry', 'post', '200').properties.data
        .properties,
    ).toHaveProperty('success');
  });

  it('gives the reference page the live origin too, on whatever port the service uses', async () => {
    for (const host of ['localhost:8787', '127.0.0.1:51234', '[::1]:4411']) {
      const response = await svc.app.inject({
        method: 'GET',
        url: '/api/docs/json',
        headers: { host },
      });
      expect(response.statusCode).toBe(200);
      expect(response.json().servers[0].url).toBe(`http://${host}`);
    }
  });

  it('lets "Try it out" call this service: connect-src self, no upgrade to https', async () => {
    const response = await svc.app.inject({ method: 'GET', url: '/api/docs/' });
    expect(response.statusCode).toBe(200);
    const csp = String(response.headers['content-security-policy']);
    expect(csp).toContain("connect-src 'self'");
    expect(csp).not.toContain('upgrade-insecure-requests');
    // Its response highlighter sets inline styles; scripts stay 'self' only.
    expect(csp).toMatch(/style-src [^;]*'unsafe-inline'/);
    expect(csp).toMatch(/script-src 'self';/);
    expect(csp).toContain("object-src 'none'");
  });

  it('serves a readable reference page without a token', async () => {
    const response = await svc.app.inject({ method: 'GET', url: '/api/docs/' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toContain('text/html');
    expect(response.body).toContain('swagger');
  });
});
