import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { jwtVerify, SignJWT } from 'jose';
import { verifyOnce } from './verified-once';

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

/** How far in the future `iat` may be: the clock of this machine may be stepped back a little. */
export const ISSUED_AT_SKEW_SECONDS = 60;

interface VerifiedToken {
  userId: string;
  issuedAt: number;
  expiresAt: number;
}

/** The checks that depend on the time; run on every use, also for a token verified before. */
function inTime(token: VerifiedToken, nowSeconds: number): boolean {
  return nowSeconds < token.expiresAt && token.issuedAt <= nowSeconds + ISSUED_AT_SKEW_SECONDS;
}

/**
 * Returns the user id, or null for any bad token: expired, tampered, `alg: none`, wrong secret,
 * no `sub`, `exp` or `iat`, living longer than TOKEN_LIFETIME_SECONDS, or issued in the future.
 * The signature and claims of a token string are checked once (verified-once.ts).
 */
export async function verifyAccessToken(
  secret: Uint8Array,
  token: string,
  nowSeconds: number,
): Promise<string | null> {
  const claims = await verifyOnce(
    secret,
    'user',
    token,
    () => verifySignatureAndClaims(secret, token, nowSeconds),
    (verified) => inTime(verified, nowSeconds),
  );
  return claims?.userId ?? null;
}

async function verifySignatureAndClaims(
  secret: Uint8Array,
  token: string,
  nowSeconds: number,
): Promise<VerifiedToken | null> {
  try {
    const { payload } = await jwtVerify(token, secret, {
      algorithms: ['HS256'],
      issuer: ISSUER,
      audience: AUDIENCE,
      requiredClaims: ['sub', 'exp', 'iat'],
      currentDate: new Date(nowSeconds * 1000),
    });
    const { sub, iat, exp } = payload;
    if (typeof sub !== 'string' || sub === '' || iat === undefined || exp === undefined) {
      return null;
    }
    if (exp - iat > TOKEN_LIFETIME_SECONDS) return null;
    return { userId: sub, issuedAt: iat, expiresAt: exp };
  } catch {
    return null;
  }
}
