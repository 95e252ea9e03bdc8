/*
 * Token strings whose signature and claims verified once, per signing secret and kind of token
 * (a user's, a device's): the signature check (jose, WebCrypto, ~0.1 ms) is the costliest step of
 * a request, and a client sends the same token with every request until it expires. Later uses
 * of the very same string only run the checks that depend on the time. The cache holds claims,
 * nothing about the user or device: callers still load those, so a deleted user or a disabled
 * device is refused at once.
 */

/** Past this many tokens the oldest is forgotten (verified again if it comes back). */
const MAX_VERIFIED_TOKENS = 10_000;
/** Per signing secret, by kind and token string. */
const verified = new WeakMap<Uint8Array, Map<string, unknown>>();

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
  const key = `${kind} ${token}`;
  let cache = verified.get(secret);
  if (!cache) verified.set(secret, (cache = new Map()));
  if (cache.has(key)) {
    const cached = cache.get(key) as T;
    if (inTime(cached)) return cached;
    cache.delete(key);
    return null;
  }
  const claims = await verify();
  if (claims === null || !inTime(claims)) return null;
  if (cache.size >= MAX_VERIFIED_TOKENS) cache.delete(cache.keys().next().value!);
  cache.set(key, claims);
  return claims;
}
