/**
 * Polled files that were taken in (or refused and recorded) but could not be moved out of the
 * inbound directory (archive/ or error/ not writable, a read-only share, a server that dropped
 * the connection). The next pass finds the same file again: it must only move it, not take it in
 * a second time (another interchange row, another 997 to the retailer every pass). Kept per
 * service and keyed by the file's content (or, for a file too large to read, its size), so a new
 * file under the same name is taken in. This is the cheap first check; after a restart the stored
 * rows answer the same question (./inbound-taken.ts).
 */
import { createHash } from 'node:crypto';
import type { ServiceContext } from '../core/context';

export interface UnmovedFile {
  sub: 'archive' | 'error';
  reason: string | null;
}

/** What a polled file is known by: its text, or its size when it is too large to take in. */
export type PolledFileIdentity = { text: string } | { tooLargeBytes: number };

const unmoved = new WeakMap<ServiceContext, Map<string, UnmovedFile & { digest: string }>>();

const filesOf = (ctx: ServiceContext) => {
  let map = unmoved.get(ctx);
  if (!map) unmoved.set(ctx, (map = new Map()));
  return map;
};

const keyOf = (connectionId: string, name: string) => `${connectionId}\u0000${name}`;
const digestOf = (identity: PolledFileIdentity) =>
  'text' in identity
    ? `text:${createHash('sha256').update(identity.text).digest('hex')}`
    : `too-large:${identity.tooLargeBytes}`;

/** Where this very file (same name, same content) was meant to go, when it was taken already. */
export function unmovedFile(
  ctx: ServiceContext,
  connectionId: string,
  name: string,
  identity: PolledFileIdentity,
): UnmovedFile | null {
  const known = filesOf(ctx).get(keyOf(connectionId, name));
  return known && known.digest === digestOf(identity) ? known : null;
}

export function noteUnmoved(
  ctx: ServiceContext,
  connectionId: string,
  name: string,
  identity: PolledFileIdentity,
  move: UnmovedFile,
): void {
  filesOf(ctx).set(keyOf(connectionId, name), { ...move, digest: digestOf(identity) });
}

export function noteMoved(ctx: ServiceContext, connectionId: string, name: string): void {
  filesOf(ctx).delete(keyOf(connectionId, name));
}
