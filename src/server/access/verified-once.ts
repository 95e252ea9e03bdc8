/*
 * Token strings whose signature and claims verified once, per signing secret and kind of token
 * (a user's, a device's): the signature check (jose, WebCrypto, ~0.1 ms) is the costliest step of
 * a request, and a client sends the same token with every request until it expires. Later uses
 * of the very same string only run the checks that depend on the time. The cache holds claims,
 * nothing about the user or device: callers still load those, so a deleted user or a disabled
 * device is refused at once.
 */

/** Past this many tokens of a kind the oldest is forgotten (verified again if it comes back). */
const MAX_VERIFIED_TOKENS = 10_000;
const verified = new WeakMap<Uint8Array, Map<string, Map<string, unknown>>>();

function cacheOf(secret: Uint8Array, kind: string): Map<string, unknown> {
  let kinds = verified.get(secret);
  if (!kinds) {
    kinds = new Map();
    verified.set(secret, kinds);
  }
  let cache = kinds.get(kind);
  if (!cache) {
    cache = new Map();
    kinds.set(kind, cache);
  }
  return cache;
}

/**
 * The claims of `token`: from `verify` (signature and claims) the first time, from the cache
 * after; `inTime` runs on every use, and a token out of its time is forgotten.
 */
export async function verifyOnce<T>(
  secret: Uint8Array,
  kind: 'user' | 'device',
  token: string,
  verify: () => Promise<T | null>,
  inTime: (claims: T) => boolean,
): Promise<T | null> {
  const cache = cacheOf(secret, kind);
  if (cache.has(token)) {
    const cached = cache.get(token) as T;
    if (inTime(cached)) return cached;
    cache.delete(token);
    return null;
  }
  const claims = await verify();
  if (claims === null || !inTime(claims)) return null;
  if (cache.size >= MAX_VERIFIED_TOKENS) cache.delete(cache.keys().next().value!);
  cache.set(token, claims);
  return claims;
}
