import { jwtVerify, SignJWT } from 'jose';
import type { ServiceContext } from '../core/context';
import { unauthenticated } from '../core/errors';
import { dummyPasswordHash, PASSWORD_COST, verifyPassword } from '../access';
import { SIGN_IN_THROTTLE, tooManyAttempts } from '../access';
import { admitSignInAttempt, clearSignInAttempts, verifyOnce } from '../access';

/** Device tokens live an hour and are good for the sync routes only (audience `sync`). */
export const DEVICE_TOKEN_SECONDS = 3600;
const AUDIENCE = 'sync';
const ISSUER = 'fulfillment-integration-central';

export interface Device {
  id: string;
  facilityIds: string[];
}

async function loadDevice(ctx: ServiceContext, deviceId: string) {
  const device = await ctx.db
    .selectFrom('devices')
    .select(['id', 'secret_hash', 'disabled_at'])
    .where('id', '=', deviceId)
    .executeTakeFirst();
  if (!device || device.disabled_at) return null;
  const facilities = await ctx.db
    .selectFrom('device_facilities')
    .select('facility_id')
    .where('device_id', '=', deviceId)
    .execute();
  return { ...device, facilityIds: facilities.map((f) => f.facility_id) };
}

/** The central's epoch (made with its database); null where there is none (not a central). */
async function currentEpoch(ctx: ServiceContext): Promise<string | null> {
  const row = await ctx.db.selectFrom('sync_meta').select('epoch').executeTakeFirst();
  return row?.epoch ?? null;
}

/**
 * `POST /api/sync/v1/session`: a device secret for a token, throttled like a user's sign-in. The
 * answer names the central's epoch, so a workstation checks whom it talks to before it pushes, and
 * the token holds it: a token from before the central's database was replaced is refused.
 */
export async function openDeviceSession(ctx: ServiceContext, deviceId: string, secret: string) {
  const now = ctx.clock.now().getTime();
  const throttleKey = `device:${deviceId.toLowerCase()}`;
  const admission = await admitSignInAttempt(ctx.db, throttleKey, now, SIGN_IN_THROTTLE);
  if (!admission.admitted) throw tooManyAttempts(admission.lockedUntil - now);
  const device = await loadDevice(ctx, deviceId.toLowerCase());
  const cost = ctx.passwordCost ?? PASSWORD_COST;
  const ok = await verifyPassword(secret, device?.secret_hash ?? (await dummyPasswordHash(cost)));
  if (!device || !ok) throw unauthenticated('Unknown device or wrong device secret');
  await clearSignInAttempts(ctx.db, throttleKey);
  const seconds = Math.floor(now / 1000);
  const epoch = await currentEpoch(ctx);
  const token = await new SignJWT(epoch ? { epoch } : {})
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(device.id)
    .setIssuer(ISSUER)
    .setAudience(AUDIENCE)
    .setIssuedAt(seconds)
    .setExpirationTime(seconds + DEVICE_TOKEN_SECONDS)
    .sign(ctx.secret);
  return { token, expires_in: DEVICE_TOKEN_SECONDS, ...(epoch ? { epoch } : {}) };
}

interface DeviceTokenClaims {
  deviceId: string | undefined;
  epoch: unknown;
  expiresAt: number | undefined;
}

/** A device token's claims once its signature, audience, issuer and times check; else null. */
async function deviceTokenClaims(
  secret: Uint8Array,
  token: string,
  now: Date,
): Promise<DeviceTokenClaims | null> {
  try {
    const { payload } = await jwtVerify(token, secret, {
      algorithms: ['HS256'],
      audience: AUDIENCE,
      issuer: ISSUER,
      currentDate: now,
    });
    return { deviceId: payload.sub, epoch: payload.epoch, expiresAt: payload.exp };
  } catch {
    return null;
  }
}

/** The device of a sync request's bearer token; a user's token, a disabled device: 401. */
export async function deviceOfToken(
  ctx: ServiceContext,
  header: string | undefined,
): Promise<Device> {
  const token = /^Bearer (.+)$/i.exec(header ?? '')?.[1];
  if (!token) throw unauthenticated('A device token is required');
  const now = ctx.clock.now();
  const nowSeconds = Math.floor(now.getTime() / 1000);
  // Verified once per token string (a device sends the same one every push and pull); `exp`
  // again on every use, as jose checks it (expired once `exp` <= now, in whole seconds).
  const claims = await verifyOnce(
    ctx.secret,
    'device',
    token,
    () => deviceTokenClaims(ctx.secret, token, now),
    (verified) => verified.expiresAt === undefined || nowSeconds < verified.expiresAt,
  );
  if (!claims) throw unauthenticated('Invalid or expired device token');
  const { deviceId, epoch: tokenEpoch } = claims;
  // The device and the central's epoch in one query: every push and pull passes here.
  const device = deviceId
    ? await ctx.db
        .selectFrom('devices')
        .select(['id', 'disabled_at'])
        .select((eb) => eb.selectFrom('sync_meta').select('epoch').limit(1).as('epoch'))
        .where('id', '=', deviceId)
        .executeTakeFirst()
    : undefined;
  if (!device || device.disabled_at) throw unauthenticated('Invalid or expired device token');
  if (device.epoch && tokenEpoch !== device.epoch) {
    throw unauthenticated('Invalid or expired device token');
  }
  const facilities = await ctx.db
    .selectFrom('device_facilities')
    .select('facility_id')
    .where('device_id', '=', device.id)
    .execute();
  return { id: device.id, facilityIds: facilities.map((f) => f.facility_id) };
}
