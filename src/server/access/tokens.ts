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

/** How far in the future `iat` may be: the clock of this machine may be stepped back a little. */
export const ISSUED_AT_SKEW_SECONDS = 60;

interface VerifiedToken {
  userId: string;
  issuedAt: number;
  expiresAt: number;
}

/** Past this many tokens the oldest is forgotten (it is verified again if it comes back). */
const MAX_VERIFIED_TOKENS = 10_000;
/** Per signing secret: a token string that verified once, with the claims that still matter. */
const verifiedTokens = new WeakMap<Uint8Array, Map<string, VerifiedToken>>();

/** The checks that depend on the time; run on every use, also for a token verified before. */
function inTime(token: VerifiedToken, nowSeconds: number): boolean {
  return nowSeconds < token.expiresAt && token.issuedAt <= nowSeconds + ISSUED_AT_SKEW_SECONDS;
}

/**
 * Returns the user id, or null for any bad token: expired, tampered, `alg: none`, wrong secret,
 * no `sub`, `exp` or `iat`, living longer than TOKEN_LIFETIME_SECONDS, or issued in the future.
 *
 * The signature and claims of a token string are checked once (jose, WebCrypto: the costliest
 * step of a request); later uses of the very same string only re-check the times. The cache
 * holds nothing about the user: the caller still loads the user, so a deleted user is refused.
 */
export async function verifyAccessToken(
  secret: Uint8Array,
  token: string,
  nowSeconds: number,
): Promise<string | null> {
  let cache = verifiedTokens.get(secret);
  const cached = cache?.get(token);
  if (cached) {
    if (inTime(cached, nowSeconds)) return cached.userId;
    cache!.delete(token);
    return null;
  }
  const verified = await verifySignatureAndClaims(secret, token, nowSeconds);
  if (!verified || !inTime(verified, nowSeconds)) return null;
  if (!cache) {
    cache = new Map();
    verifiedTokens.set(secret, cache);
  }
  if (cache.size >= MAX_VERIFIED_TOKENS) cache.delete(cache.keys().next().value!);
  cache.set(token, verified);
  return verified.userId;
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
