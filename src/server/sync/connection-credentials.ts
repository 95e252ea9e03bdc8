import {
  openOrderDocumentsJson,
  orderDocumentsWithoutCredentials,
} from '../core/sealed-order-documents';
import { isSealed, openTransportJson, SecretLockedError } from '../core/secret-box';

/**
 * A connection's credentials reach only the replicas that send over it (issue 18 item 11): a
 * device pulls a connection with `sender = 'central'` without them. What is a credential:
 * http headers (API keys, Authorization), user and password in an http URL, and the SFTP password
 * and private key. EDI settings (interchange ids) are not secret: the partner prints them on
 * every document.
 */
export function transportWithoutCredentials(transportJson: string): string {
  let transport: unknown;
  try {
    transport = JSON.parse(transportJson);
  } catch {
    return '{}';
  }
  if (!transport || typeof transport !== 'object') return '{}';
  const {
    headers: _headers,
    password: _password,
    privateKey: _key,
    ...rest
  } = transport as {
    [key: string]: unknown;
  };
  if (typeof rest.url === 'string') rest.url = urlWithoutCredentials(rest.url);
  return JSON.stringify(rest);
}

/** The URL without user, password and query (query strings carry API keys too). */
function urlWithoutCredentials(url: string): string {
  try {
    const parsed = new URL(url);
    parsed.username = '';
    parsed.password = '';
    parsed.search = '';
    return parsed.href;
  } catch {
    return '';
  }
}

/** The connection row a device receives: credentials only where the device sends over it. */
export function connectionRowForDevice(row: Record<string, unknown>): Record<string, unknown> {
  // A central on the desktop keeps them sealed with its own key; the device gets them plain
  // (over TLS) and seals them with its own.
  const stored = String(row.transport_json ?? '');
  const documents = orderDocumentsForDevice(row);
  let transport: string;
  try {
    transport = openTransportJson(stored);
  } catch (error) {
    // One secret this central cannot open (no key, another keychain's) must not fail the whole
    // pull: the device gets the connection without credentials, and the admin enters them again.
    if (!(error instanceof SecretLockedError)) throw error;
    return {
      ...row,
      ...documents,
      transport_json: transportWithoutCredentials(withoutSealedUrl(stored)),
    };
  }
  return {
    ...row,
    ...documents,
    transport_json:
      row.sender === 'workstation' ? transport : transportWithoutCredentials(transport),
  };
}

/**
 * The SFTP inbound directory's password or key (order_documents.inbound) go by the same rule:
 * only a workstation that sends over the connection polls its directory.
 */
function orderDocumentsForDevice(row: Record<string, unknown>): {
  order_documents_json?: string | null;
} {
  if (typeof row.order_documents_json !== 'string') return {};
  const stored = row.order_documents_json;
  if (row.sender !== 'workstation') {
    return { order_documents_json: orderDocumentsWithoutCredentials(stored) };
  }
  try {
    return { order_documents_json: openOrderDocumentsJson(stored) };
  } catch (error) {
    if (!(error instanceof SecretLockedError)) throw error;
    return { order_documents_json: orderDocumentsWithoutCredentials(stored) };
  }
}

/** The transport JSON without its URL when that is sealed (a sealed URL carries credentials). */
function withoutSealedUrl(transportJson: string): string {
  try {
    const transport = JSON.parse(transportJson) as unknown;
    if (!transport || typeof transport !== 'object') return transportJson;
    const { url, ...rest } = transport as Record<string, unknown>;
    return JSON.stringify(typeof url === 'string' && isSealed(url) ? rest : { ...rest, url });
  } catch {
    return transportJson;
  }
}
