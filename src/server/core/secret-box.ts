import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/**
 * Secrets at rest on the desktop (issue 18 item 11): the device secret in sync-settings.json and
 * connection credentials in the database are sealed with AES-256-GCM under a key that the
 * Electron main process keeps encrypted with the OS keychain (safeStorage) and hands to the
 * service at start (src/main/desktop-secrets.ts). Headless there is no key: values stay as they
 * are, in files of mode 0600. One key per process: a process runs one service (tests run several,
 * none with a key).
 */
const PREFIX = 'sealed:v1:';
const KEY_BYTES = 32;
let processKey: Buffer | null = null;

/** A sealed value that cannot be opened here (no key, or another install's key). */
export class SecretLockedError extends Error {
  constructor() {
    super(
      "A secret is encrypted with this computer's keychain and cannot be read here; enter it again",
    );
  }
}

/** Sets (or clears, with null) the key this process seals with. */
export function useSecretsKey(key: Uint8Array | null): void {
  if (key !== null && key.length !== KEY_BYTES) {
    throw new Error(`the secrets key must be ${KEY_BYTES} bytes`);
  }
  processKey = key === null ? null : Buffer.from(key);
}

/** Whether this process seals secrets (the desktop with a keychain), or keeps them as they are. */
export function hasSecretsKey(): boolean {
  return processKey !== null;
}

export function isSealed(value: string): boolean {
  return value.startsWith(PREFIX);
}

/** The value sealed under the process key; unchanged when there is none (headless). */
export function seal(value: string): string {
  if (!processKey || isSealed(value)) return value;
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', processKey, iv);
  const body = Buffer.concat([cipher.update(value, 'utf8'), cipher.final()]);
  return PREFIX + Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64');
}

/** The plain value; a value never sealed comes back as it is. */
export function unseal(value: string): string {
  if (!isSealed(value)) return value;
  if (!processKey) throw new SecretLockedError();
  const raw = Buffer.from(value.slice(PREFIX.length), 'base64');
  try {
    const decipher = createDecipheriv('aes-256-gcm', processKey, raw.subarray(0, 12));
    decipher.setAuthTag(raw.subarray(12, 28));
    return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
  } catch {
    throw new SecretLockedError();
  }
}

type Transport = Record<string, unknown>;

/** Whether an http URL carries a credential (user, password or a query, where API keys go). */
function urlHasCredentials(url: string): boolean {
  try {
    const parsed = new URL(url);
    return parsed.username !== '' || parsed.password !== '' || parsed.search !== '';
  } catch {
    return false;
  }
}

/**
 * A connection's transport JSON with its credentials sealed (SFTP password and private key, http
 * headers, an http URL with user, password or query); the rest stays readable.
 */
export function sealTransportJson(json: string): string {
  if (!processKey) return json;
  const transport = parseTransport(json);
  if (!transport) return json;
  for (const field of ['password', 'privateKey'] as const) {
    if (typeof transport[field] === 'string') transport[field] = seal(transport[field]);
  }
  if (transport.headers && typeof transport.headers === 'object') {
    transport.headers = seal(JSON.stringify(transport.headers));
  }
  if (
    typeof transport.url === 'string' &&
    !isSealed(transport.url) &&
    urlHasCredentials(transport.url)
  ) {
    transport.url = seal(transport.url);
  }
  return JSON.stringify(transport);
}

/** The transport JSON as written by the admin (sealed fields opened). */
export function openTransportJson(json: string): string {
  if (!json.includes(PREFIX)) return json;
  const transport = parseTransport(json);
  if (!transport) return json;
  for (const field of ['password', 'privateKey', 'url'] as const) {
    if (typeof transport[field] === 'string') transport[field] = unseal(transport[field]);
  }
  if (typeof transport.headers === 'string') {
    transport.headers = JSON.parse(unseal(transport.headers)) as unknown;
  }
  return JSON.stringify(transport);
}

function parseTransport(json: string): Transport | null {
  try {
    const value = JSON.parse(json) as unknown;
    return value && typeof value === 'object' && !Array.isArray(value)
      ? (value as Transport)
      : null;
  } catch {
    return null;
  }
}
