import { base64url, decodeJwt, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseBundle, id } from '../helpers/fixtures';
import { movableClock } from '../helpers/clock';
import { createTestService, type TestService } from '../helpers/service';
import { expectError } from './envelope';
import { describeEngines } from '../helpers/engines';

describeEngines('bearer', (engine) => {
  const clock = movableClock();

  /** Every route that needs a token, with a request that would succeed for admin@a.test. */
  const PROTECTED = [
    '/api/user-facilities/v1/facilities',
    `/api/brand/v1/facility/${id('f', 1)}`,
    `/api/retailer/v1/facility/${id('f', 1)}`,
    `/api/retailer/v1/facility/${id('f', 1)}?brand_id=${id('b', 1)}`,
  ];

  /** The claims the service puts in its tokens (see an issued token); used to forge look-alikes. */
  let issued: { iss: string; aud: string; sub: string };
  let adminToken: string;
  let svc: TestService;

  beforeAll(async () => {
    svc = await createTestService({ seed: baseBundle(), clock, engine });
    adminToken = (await svc.login('admin@a.test')).slice('Bearer '.length);
    const claims = decodeJwt(adminToken);
    issued = { iss: claims.iss!, aud: claims.aud as string, sub: claims.sub! };
  });
  afterAll(async () => {
    await svc?.close();
  });

  const get = (url: string, authorization?: string) =>
    svc.app.inject({
      method: 'GET',
      url,
      headers: authorization === undefined ? {} : { authorization },
    });

  async function expectRejectedEverywhere(authorization: string | undefined) {
    for (const url of PROTECTED) {
      expectError(await get(url, authorization), 401, 'UNAUTHORIZED', 'Authentication failed');
    }
  }

  function forge(
    claims: Record<string, unknown>,
    options: { secret?: Uint8Array; iat?: number; exp?: number } = {},
  ) {
    const now = Math.floor(clock.now().getTime() / 1000);
    return new SignJWT(claims)
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setIssuedAt(options.iat ?? now)
      .setExpirationTime(options.exp ?? now + 3600)
      .sign(options.secret ?? svc.ctx.secret);
  }

  describe('a valid token', () => {
    it.each(PROTECTED)('opens %s', async (url) => {
      const response = await get(url, `Bearer ${adminToken}`);
      expect(response.statusCode, response.body).toBe(200);
    });

    it('a token forged with the right secret and claims is accepted (the control for the cases below)', async () => {
      const token = await forge({ sub: issued.sub, iss: issued.iss, aud: issued.aud });
      expect((await get(PROTECTED[0]!, `Bearer ${token}`)).statusCode).toBe(200);
    });
  });

  describe('401 Authentication failed / UNAUTHORIZED on every protected route', () => {
    it('missing Authorization header', async () => {
      await expectRejectedEverywhere(undefined);
    });

    it('empty Authorization header', async () => {
      await expectRejectedEverywhere('');
    });

    it('Basic scheme', async () => {
      await expectRejectedEverywhere('Basic x');
      const basic = Buffer.from(`admin@a.test:correct-horse-battery`).toString('base64');
      await expectRejectedEverywhere(`Basic ${basic}`);
    });

    it('the token without a scheme', async () => {
      await expectRejectedEverywhere(adminToken);
    });

    it('Bearer with no token', async () => {
      await expectRejectedEverywhere('Bearer');
      await expectRejectedEverywhere('Bearer ');
    });

    it('two tokens in one header', async () => {
      await expectRejectedEverywhere(`Bearer ${adminToken} ${adminToken}`);
    });

    it('garbage tokens', async () => {
      for (const garbage of ['x', 'abc.def.ghi', 'not-a-jwt', '...', 'eyJ.eyJ.']) {
        await expectRejectedEverywhere(`Bearer ${garbage}`);
      }
    });

    it('expired token (signed with the service secret, exp in the past)', async () => {
      const now = Math.floor(Date.now() / 1000);
      const token = await forge(
        { sub: issued.sub, iss: issued.iss, aud: issued.aud },
        { iat: now - 7200, exp: now - 3600 },
      );
      await expectRejectedEverywhere(`Bearer ${token}`);
    });

    it('an issued token expires after 3600 s of service time', async () => {
      const token = await svc.login('viewer@a.test');
      try {
        clock.offsetMs = 3590_000;
        expect((await get(PROTECTED[0]!, token)).statusCode).toBe(200);
        clock.offsetMs = 3601_000;
        await expectRejectedEverywhere(token);
      } finally {
        clock.offsetMs = 0;
      }
      expect((await get(PROTECTED[0]!, token)).statusCode).toBe(200);
    });

    it('tampered payload (sub changed, signature kept)', async () => {
      const [header, payload, signature] = adminToken.split('.') as [string, string, string];
      const claims = JSON.parse(new TextDecoder().decode(base64url.decode(payload)));
      const other = await svc.ctx.db
        .selectFrom('users')
        .select('id')
        .where('email', '=', 'brand1@a.test')
        .executeTakeFirstOrThrow();
      expect(other.id).not.toBe(claims.sub);
      const tampered = base64url.encode(JSON.stringify({ ...claims, sub: other.id }));
      await expectRejectedEverywhere(`Bearer ${header}.${tampered}.${signature}`);
      // Extending the expiry is tampering too.
      const longer = base64url.encode(JSON.stringify({ ...claims, exp: claims.exp + 86400 }));
      await expectRejectedEverywhere(`Bearer ${header}.${longer}.${signature}`);
    });

    it('tampered signature', async () => {
      const [header, payload, signature] = adminToken.split('.') as [string, string, string];
      const flipped = (signature[0] === 'A' ? 'B' : 'A') + signature.slice(1);
      await expectRejectedEverywhere(`Bearer ${header}.${payload}.${flipped}`);
      await expectRejectedEverywhere(`Bearer ${header}.${payload}.`);
    });

    it('alg: none token', async () => {
      const now = Math.floor(Date.now() / 1000);
      const header = base64url.encode(JSON.stringify({ alg: 'none', typ: 'JWT' }));
      const payload = base64url.encode(JSON.stringify({ ...issued, iat: now, exp: now + 3600 }));
      await expectRejectedEverywhere(`Bearer ${header}.${payload}.`);
      // Same with the header's alg in another case, and with a leftover signature.
      const upper = base64url.encode(JSON.stringify({ alg: 'None', typ: 'JWT' }));
      await expectRejectedEverywhere(`Bearer ${upper}.${payload}.`);
      const signature = adminToken.split('.')[2];
      await expectRejectedEverywhere(`Bearer ${header}.${payload}.${signature}`);
    });

    it('token signed with another secret', async () => {
      const token = await forge(
        { sub: issued.sub, iss: issued.iss, aud: issued.aud },
        { secret: new TextEncoder().encode('some-other-secret-some-other-secret!') },
      );
      await expectRejectedEverywhere(`Bearer ${token}`);
    });

    it('token signed with the right secret but another algorithm (HS512)', async () => {
      const now = Math.floor(Date.now() / 1000);
      const token = await new SignJWT({ sub: issued.sub, iss: issued.iss, aud: issued.aud })
        .setProtectedHeader({ alg: 'HS512' })
        .setIssuedAt(now)
        .setExpirationTime(now + 3600)
        .sign(new Uint8Array([...svc.ctx.secret, ...svc.ctx.secret]));
      await expectRejectedEverywhere(`Bearer ${token}`);
    });

    it('right secret but wrong issuer or audience, or no sub', async () => {
      for (const claims of [
        { sub: issued.sub, iss: 'someone-else', aud: issued.aud },
        { sub: issued.sub, iss: issued.iss, aud: 'another-api' },
        { sub: issued.sub },
        { iss: issued.iss, aud: issued.aud },
      ]) {
        await expectRejectedEverywhere(`Bearer ${await forge(claims)}`);
      }
    });

    it('a token with no exp, or no iat, is refused even when well signed', async () => {
      const now = Math.floor(clock.now().getTime() / 1000);
      const claims = { sub: issued.sub, iss: issued.iss, aud: issued.aud };
      const sign = (extra: Record<string, number>) =>
        new SignJWT({ ...claims, ...extra })
          .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
          .sign(svc.ctx.secret);
      await expectRejectedEverywhere(`Bearer ${await sign({ iat: now })}`);
      await expectRejectedEverywhere(`Bearer ${await sign({ exp: now + 600 })}`);
      // The control: the same claims with both are accepted.
      expect(
        (await get(PROTECTED[0]!, `Bearer ${await sign({ iat: now, exp: now + 600 })}`)).statusCode,
      ).toBe(200);
    });

    it('a token meant to live longer than 1 h is refused, even while its first hour runs', async () => {
      const now = Math.floor(clock.now().getTime() / 1000);
      const claims = { sub: issued.sub, iss: issued.iss, aud: issued.aud };
      await expectRejectedEverywhere(
        `Bearer ${await forge(claims, { iat: now, exp: now + 3601 })}`,
      );
      await expectRejectedEverywhere(
        `Bearer ${await forge(claims, { iat: now - 10, exp: now + 86400 })}`,
      );
      // Exactly one hour is the lifetime the service issues.
      const oneHour = await forge(claims, { iat: now, exp: now + 3600 });
      expect((await get(PROTECTED[0]!, `Bearer ${oneHour}`)).statusCode).toBe(200);
    });

    it('a token issued in the future beyond 60 s of clock skew is refused; within it, accepted', async () => {
      const now = Math.floor(clock.now().getTime() / 1000);
      const claims = { sub: issued.sub, iss: issued.iss, aud: issued.aud };
      const future = await forge(claims, { iat: now + 120, exp: now + 600 });
      await expectRejectedEverywhere(`Bearer ${future}`);
      const skewed = await forge(claims, { iat: now + 30, exp: now + 600 });
      expect((await get(PROTECTED[0]!, `Bearer ${skewed}`)).statusCode).toBe(200);
    });

    it('an accepted (and remembered) token does not make a look-alike pass, and its checks still run on reuse', async () => {
      const token = await svc.login('viewer@a.test');
      expect((await get(PROTECTED[0]!, token)).statusCode).toBe(200);
      expect((await get(PROTECTED[0]!, token)).statusCode).toBe(200);
      const [header, payload, signature] = token.slice('Bearer '.length).split('.') as [
        string,
        string,
        string,
      ];
      const flipped = (signature[0] === 'A' ? 'B' : 'A') + signature.slice(1);
      await expectRejectedEverywhere(`Bearer ${header}.${payload}.${flipped}`);
      await expectRejectedEverywhere(`Bearer ${header}.${payload}.${signature}x`);
      // Expiry is checked on every use, not only the first.
      try {
        clock.offsetMs = 3601_000;
        await expectRejectedEverywhere(token);
      } finally {
        clock.offsetMs = 0;
      }
    });

    it('a well-signed token for a user id that does not exist', async () => {
      const token = await forge({
        sub: '5de7da8e-0000-4000-8000-000000000000',
        iss: issued.iss,
        aud: issued.aud,
      });
      await expectRejectedEverywhere(`Bearer ${token}`);
    });

    it('a valid token whose user was deleted afterwards', async () => {
      const token = await svc.login('viewer@a.test');
      expect((await get(PROTECTED[0]!, token)).statusCode).toBe(200);
      await svc.ctx.db.deleteFrom('users').where('email', '=', 'viewer@a.test').execute();
      await expectRejectedEverywhere(token);
    });
  });

  describe('public routes need no token', () => {
    it('GET /api/health', async () => {
      const response = await get('/api/health');
      expect(response.statusCode).toBe(200);
      expect(response.json()).toMatchObject({ status: 'ok' });
    });

    it('GET /api/openapi.json', async () => {
      const response = await get('/api/openapi.json');
      expect(response.statusCode).toBe(200);
      expect(response.json().openapi).toMatch(/^3\./);
    });

    it('GET /api/docs/', async () => {
      const response = await get('/api/docs/');
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toMatch(/^text\/html/);
    });

    it('a bad token on a public route is ignored, not rejected', async () => {
      expect((await get('/api/health', 'Bearer garbage')).statusCode).toBe(200);
      const response = await svc.app.inject({
        method: 'POST',
        url: '/api/auth/token',
        headers: { authorization: 'Bearer garbage' },
        payload: { email: 'brand2@b.test', password: 'correct-horse-battery' },
      });
      expect(response.statusCode).toBe(200);
    });

    it('the OpenAPI document marks the token and health routes public and the lookups as bearer-protected', async () => {
      const doc = (await get('/api/openapi.json')).json();
      expect(doc.paths['/api/auth/token'].post.security).toEqual([]);
      expect(doc.paths['/api/health'].get.security).toEqual([]);
      expect(doc.paths['/api/user-facilities/v1/facilities'].get.security).toBeUndefined();
      expect(doc.security).toEqual([{ bearerAuth: [] }]);
    });
  });
});
