import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { jwtVerify, SignJWT } from 'jose';

/** Access tokens live one hour; `expires_in` is in seconds. */
export const TOKEN_LIFETIME_SECONDS = 3600;
const ISSUER = 'fulfillment-integration-desktop';
const AUDIENCE = 'local-api';

/** The per-install signing secret, created on first start and kept in the data dir (mode 0600). */
export function loadOrCreateSecret(dataDir: string | ':memory:'): Uint8Array {
  if (dataDir === ':memory:') return randomBytes(32);
  mkdirSync(dataDir, { recursive: true });
  const file = join(dataDir, 'jwt-secret.key');
  if (!existsSync(file)) {
    writeFileSync(file, randomBytes(32).toString('base64'), { mode: 0o600, flag: 'wx' });
  }
  chmodSync(file, 0o600);
  return Buffer.from(readFileSync(file, 'utf8').trim(), 'base64');
}

export async function signAccessToken(
  secret: Uint8Array,
  userId: string,
  nowSeconds: number,
): Promise<string> {
  return new SignJWT({})
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(userId)
    .setIssuer(ISSUER)
    .setAudience(AUDIENCE)
    .setIssuedAt(nowSeconds)
    .setExpirationTime(nowSeconds + TOKEN_LIFETIME_SECONDS)
    .sign(secret);
}

/** Returns the user id, or null for any bad token (expired, tampered, `alg: none`, wrong secret). */
export async function verifyAccessToken(
  secret: Uint8Array,
  token: string,
  nowSeconds: number,
): Promise<string | null> {
  try {
    const { payload } = await jwtVerify(token, secret, {
      algorithms: ['HS256'],
      issuer: ISSUER,
      audience: AUDIENCE,
      currentDate: new Date(nowSeconds * 1000),
    });
    return typeof payload.sub === 'string' ? payload.sub : null;
  } catch {
    return null;
  }
}
