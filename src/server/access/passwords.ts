import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import type { PasswordCost } from '../core/policies';

export type { PasswordCost } from '../core/policies';

/** New hashes: N=2^17 (about 0.3 s and 128 MiB per hash). Older hashes keep their own parameters. */
export const PASSWORD_COST: PasswordCost = { N: 2 ** 17, r: 8, p: 1 };

const KEY_LENGTH = 32;
/** Twice what PASSWORD_COST needs; a stored hash asking for more is refused rather than run. */
const MAX_MEMORY = 256 * 1024 * 1024;
/**
 * Hashes that may run at once. scrypt runs on libuv's thread pool (4 threads), which file I/O
 * shares; a burst of sign-ins must not take every thread or 4 x 128 MiB.
 */
const MAX_CONCURRENT_HASHES = 2;

let running = 0;
const waiting: (() => void)[] = [];

async function withHashSlot<T>(work: () => Promise<T>): Promise<T> {
  if (running < MAX_CONCURRENT_HASHES) running++;
  else await new Promise<void>((go) => waiting.push(go)); // the finishing hash hands its slot over
  try {
    return await work();
  } finally {
    const next = waiting.shift();
    if (next) next();
    else running--;
  }
}

function derive(password: string, salt: Buffer, cost: PasswordCost, length: number) {
  const options: ScryptOptions = { ...cost, maxmem: MAX_MEMORY };
  return withHashSlot(
    () =>
      new Promise<Buffer>((resolve, reject) =>
        scrypt(password, salt, length, options, (err, key) => (err ? reject(err) : resolve(key))),
      ),
  );
}

interface StoredHash {
  cost: PasswordCost;
  salt: Buffer;
  key: Buffer;
}

/** Parses `scrypt$N$r$p$<salt>$<key>`; undefined for anything else or a cost this service will not run. */
function parseStoredHash(stored: string): StoredHash | undefined {
  const [scheme, n, r, p, saltB64, keyB64, ...rest] = stored.split('$');
  if (scheme !== 'scrypt' || !saltB64 || !keyB64 || rest.length > 0) return undefined;
  const cost = { N: Number(n), r: Number(r), p: Number(p) };
  const valid =
    Number.isSafeInteger(cost.N) &&
    cost.N > 1 &&
    (cost.N & (cost.N - 1)) === 0 &&
    Number.isSafeInteger(cost.r) &&
    cost.r > 0 &&
    Number.isSafeInteger(cost.p) &&
    cost.p > 0 &&
    cost.p <= 16 &&
    128 * (cost.N + cost.p + 2) * cost.r <= MAX_MEMORY;
  const key = Buffer.from(keyB64, 'base64');
  return valid && key.length > 0 ? { cost, salt: Buffer.from(saltB64, 'base64'), key } : undefined;
}

/** `scrypt$N$r$p$<salt b64>$<key b64>`: the parameters travel with the hash so they can be raised later. */
export async function hashPassword(password: string, cost = PASSWORD_COST): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, cost, KEY_LENGTH);
  return ['scrypt', cost.N, cost.r, cost.p, salt.toString('base64'), key.toString('base64')].join(
    '$',
  );
}

/** Checks a password against a stored hash, at the cost stored with it. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parsed = parseStoredHash(stored);
  if (!parsed) return false;
  const actual = await derive(password, parsed.salt, parsed.cost, parsed.key.length);
  return timingSafeEqual(actual, parsed.key);
}

/** True when the stored hash is cheaper than `cost` (or unreadable), so a sign-in should re-hash it. */
export function needsRehash(stored: string, cost = PASSWORD_COST): boolean {
  const parsed = parseStoredHash(stored);
  return !parsed || parsed.cost.N < cost.N;
}

const dummyHashes = new Map<string, Promise<string>>();

/**
 * Verified against when the email is unknown, so timing does not reveal which emails exist. It has
 * the cost new hashes get; made on first use, not at import.
 */
export function dummyPasswordHash(cost = PASSWORD_COST): Promise<string> {
  const costKey = `${cost.N}$${cost.r}$${cost.p}`;
  let hash = dummyHashes.get(costKey);
  if (!hash) {
    hash = hashPassword('not-a-real-password', cost);
    dummyHashes.set(costKey, hash);
  }
  return hash;
}
