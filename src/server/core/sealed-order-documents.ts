import { isSealed, seal, unseal } from './secret-box';

/**
 * A connection's `order_documents_json` may name an SFTP inbound directory with a password or a
 * private key. Those two are sealed at rest like the transport's credentials (./secret-box.ts);
 * the rest stays readable, since ack hours, the send list and the rest are read all the time.
 * Only the poller opens them, just before it connects.
 */
const CREDENTIALS = ['password', 'privateKey'] as const;

type Json = Record<string, unknown>;

function parseObject(json: string): Json | null {
  try {
    const value = JSON.parse(json) as unknown;
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : null;
  } catch {
    return null;
  }
}

function inboundOf(settings: Json): Json | null {
  const inbound = settings.inbound;
  return inbound && typeof inbound === 'object' && !Array.isArray(inbound)
    ? (inbound as Json)
    : null;
}

/** The settings JSON with the inbound credentials sealed (unchanged without a key, or none). */
export function sealOrderDocumentsJson(json: string | null): string | null {
  if (json === null) return null;
  const settings = parseObject(json);
  const inbound = settings && inboundOf(settings);
  if (!settings || !inbound) return json;
  let changed = false;
  for (const field of CREDENTIALS) {
    const value = inbound[field];
    if (typeof value !== 'string' || isSealed(value)) continue;
    const sealed = seal(value);
    if (sealed !== value) changed = true;
    inbound[field] = sealed;
  }
  return changed ? JSON.stringify(settings) : json;
}

/** One stored credential opened (throws SecretLockedError when this process cannot). */
export const openCredential = (value: string | undefined): string | undefined =>
  value === undefined ? undefined : unseal(value);

/** The settings JSON with the inbound credentials opened (throws SecretLockedError). */
export function openOrderDocumentsJson(json: string | null): string | null {
  if (json === null || !json.includes('sealed:')) return json;
  const settings = parseObject(json);
  const inbound = settings && inboundOf(settings);
  if (!settings || !inbound) return json;
  for (const field of CREDENTIALS) {
    if (typeof inbound[field] === 'string') inbound[field] = unseal(inbound[field]);
  }
  return JSON.stringify(settings);
}

/** The settings JSON without the inbound credentials (what a replica that does not poll gets). */
export function orderDocumentsWithoutCredentials(json: string | null): string | null {
  if (json === null) return null;
  const settings = parseObject(json);
  const inbound = settings && inboundOf(settings);
  if (!settings || !inbound) return json;
  for (const field of CREDENTIALS) delete inbound[field];
  return JSON.stringify(settings);
}
