import { describe, expect, it } from 'vitest';
import { expectError } from '../api/envelope';
import { id } from '../helpers/fixtures';
import { fulfilmentService } from './support';

const USERS = ['packer@a.test', 'admin@a.test', 'brand2@b.test', 'charlie1@b.test'] as const;
const floor = fulfilmentService(USERS);
const { as } = floor;

const read = (email: (typeof USERS)[number], brandId: string) =>
  as(email).call('GET', `/api/v1/brands/${brandId}/gs1-prefix`);

describe('GET /api/v1/brands/{brand_id}/gs1-prefix', () => {
  it('shows the brand’s current prefix to whoever sees the brand; null when none is set', async () => {
    const response = await read('packer@a.test', id('b', 1));
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({
      message: 'GS1 company prefix retrieved',
      data: { brand_id: id('b', 1), gs1_company_prefix: '0614141' },
    });
    expect((await read('admin@a.test', id('b', 2))).json().data).toEqual({
      brand_id: id('b', 2),
      gs1_company_prefix: null,
    });
    // The same brand, seen through a grant at another facility of it.
    expect((await read('charlie1@b.test', id('b', 1))).json().data.gs1_company_prefix).toBe(
      '0614141',
    );
  });

  it('follows a change', async () => {
    const put = await as('admin@a.test').call('PUT', `/api/v1/brands/${id('b', 1)}/gs1-prefix`, {
      gs1_company_prefix: '0614142',
    });
    expect(put.statusCode, put.body).toBe(200);
    expect((await read('packer@a.test', id('b', 1))).json().data.gs1_company_prefix).toBe(
      '0614142',
    );
  });

  it('a brand the user does not see answers 404 like an unknown one; a bad id 400', async () => {
    // brand2 acts for brand 2: brand 1 does not exist for it.
    expectError(await read('brand2@b.test', id('b', 1)), 404, 'NOT_FOUND', 'Brand not found');
    expectError(
      await read('admin@a.test', '0b000000-0000-4000-8000-000000000099'),
      404,
      'NOT_FOUND',
      'Brand not found',
    );
    expectError(await read('admin@a.test', 'nope'), 400, 'INVALID_REQUEST');
  });
});
