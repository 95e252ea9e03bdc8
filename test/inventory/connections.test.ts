/**
 * GET /api/v1/inventory/connections: the connections an advice would reach, with the same
 * visibility (404) and admin (403) rules as a preview, and only within the facility's organisation.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adviceConnectionListSchema } from '../../src/shared/inventory';
import { baseBundle, id } from '../helpers/fixtures';
import { createTestService, type TestService } from '../helpers/service';
import { get } from './support';

const [B1, B2, F1, F2, F3] = [id('b', 1), id('b', 2), id('f', 1), id('f', 2), id('f', 3)];
const url = (brandId: string, facilityId: string) =>
  `/api/v1/inventory/connections?brand_id=${brandId}&facility_id=${facilityId}`;

describe('inventory connections', () => {
  let svc: TestService;
  let admin: string;
  let brand1: string;
  let viewer: string;

  beforeAll(async () => {
    const bundle = baseBundle();
    // A disabled direct feed for brand 1 in organisation 1: listed, marked disabled.
    bundle.connections.push({
      id: id('c', 4),
      organization_id: id('o', 1),
      brand_id: B1,
      retailer_id: id('r', 2),
      kind: 'DIRECT_API',
      enabled: false,
      transport: { type: 'file', directory: 'outbox/r4' },
    });
    svc = await createTestService({ seed: bundle });
    admin = await svc.login('admin@a.test');
    brand1 = await svc.login('brand1@a.test');
    viewer = await svc.login('viewer@a.test');
  });
  afterAll(async () => {
    await svc?.close();
  });

  const list = async (bearer: string, target: string) => {
    const response = await get(svc, bearer, target);
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json() as { message: string; data: unknown };
    expect(Object.keys(body).sort()).toEqual(['data', 'message']);
    expect(body.message).toBe('Connections retrieved successfully');
    return adviceConnectionListSchema.parse(body.data);
  };
  const expectError = async (
    bearer: string | null,
    target: string,
    status: number,
    message: string,
  ) => {
    const response = bearer
      ? await get(svc, bearer, target)
      : await svc.app.inject({ method: 'GET', url: target });
    expect(response.statusCode, response.body).toBe(status);
    const body = response.json() as { message: string; error: { code: string } };
    expect(body.message).toBe(message);
    expect(typeof body.error.code).toBe('string');
  };

  it('lists the brand’s connections in the facility’s organisation only, with kind and enabled', async () => {
    const connections = await list(admin, url(B1, F1));
    expect(connections).toEqual([
      {
        connection_id: id('c', 1),
        retailer_id: id('r', 1),
        retailer_name: 'Retailer One',
        kind: 'EDI_846',
        enabled: true,
      },
      {
        connection_id: id('c', 4),
        retailer_id: id('r', 2),
        retailer_name: 'Retailer Two',
        kind: 'DIRECT_API',
        enabled: false,
      },
    ]);
    // Organisation 2's connection of the same brand (c3) is not among them.
    expect(connections.map((c) => c.connection_id)).not.toContain(id('c', 3));
  });

  it('at a facility of the other organisation, only that organisation’s connection', async () => {
    const connections = await list(brand1, url(B1, F3));
    expect(connections.map((c) => c.connection_id)).toEqual([id('c', 3)]);
  });

  it('upper-case ids find the same rows', async () => {
    const connections = await list(admin, url(B1.toUpperCase(), F1.toUpperCase()));
    expect(connections).toHaveLength(2);
  });

  it('a user without an admin grant is refused (403)', async () => {
    await expectError(viewer, url(B1, F1), 403, 'Unauthorized');
  });

  it('an admin grant for the same brand at another facility is not enough (403)', async () => {
    // admin@a.test: admin for brand 1 at facility 1 only; facility 2 is visible to them.
    await expectError(admin, url(B1, F2), 403, 'Unauthorized');
    // …nor is an admin grant for another brand at the same facility.
    await expectError(admin, url(B2, F1), 403, 'Unauthorized');
  });

  it('a facility the user cannot see answers like an unknown one (404)', async () => {
    await expectError(admin, url(B1, F3), 404, 'Facility not found');
    await expectError(admin, url(B1, id('f', 99)), 404, 'Facility not found');
  });

  it('a brand without connections there is 404, like a preview', async () => {
    // brand 2 works at facility 3 with no connection in organisation 2.
    const bundleUser = await svc.login('brand2@b.test');
    await expectError(
      bundleUser,
      url(B2, F3),
      404,
      'No inventory advice configuration found for this brand and facility',
    );
  });

  it('bad or missing query parameters are 400; no token is 401', async () => {
    await expectError(admin, url('not-a-uuid', F1), 400, 'Invalid query parameters');
    await expectError(
      admin,
      `/api/v1/inventory/connections?brand_id=${B1}`,
      400,
      'Invalid query parameters',
    );
    await expectError(null, url(B1, F1), 401, 'Authentication failed');
  });

  it('is described in the OpenAPI document', async () => {
    const doc = (await svc.app.inject({ method: 'GET', url: '/api/openapi.json' })).json() as {
      paths: Record<string, { get?: { parameters?: { name: string }[] } }>;
    };
    const path = doc.paths['/api/v1/inventory/connections'];
    expect(path?.get).toBeDefined();
    expect(path!.get!.parameters!.map((p) => p.name).sort()).toEqual(['brand_id', 'facility_id']);
  });
});
