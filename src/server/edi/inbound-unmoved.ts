/**
 * Polled files that were taken in (or refused and recorded) but could not be moved out of the
 * inbound directory (archive/ or error/ not writable, a read-only share, a server that dropped
 * the connection). The next pass finds the same file again: it must only move it, not take it in
 * a second time (another interchange row, another 997 to the retailer every pass). Kept per
 * service and keyed by the file's content, so a new file under the same name is taken in; after a
 * restart such a file is taken in once more, as a duplicate.
 */
import { createHash } from 'node:crypto';
import type { ServiceContext } from '../core/context';

export interface UnmovedFile {
  sub: 'archive' | 'error';
  reason: string | null;
}

const unmoved = new WeakMap<ServiceContext, Map<string, UnmovedFile & { digest: string }>>();

const filesOf = (ctx: ServiceContext) => {
  let map = unmoved.get(ctx);
  if (!map) unmoved.set(ctx, (map = new Map()));
  return map;
};

const keyOf = (connectionId: string, name: string) => `${connectionId}\u0000${name}`;
const digestOf = (text: string) => createHash('sha256').update(text).digest('hex');

/** Where this very file (same name, same text) was meant to go, when it was taken already. */
export function unmovedFile(
  ctx: ServiceContext,
  connectionId: string,
  name: string,
  text: string,
): UnmovedFile | null {
  const known = filesOf(ctx).get(keyOf(connectionId, name));
  return known && known.digest === digestOf(text) ? known : null;
}

export function noteUnmoved(
  ctx: ServiceContext,
  connectionId: string,
  name: string,
  text: string,
  move: UnmovedFile,
): void {
  filesOf(ctx).set(keyOf(connectionId, name), { ...move, digest: digestOf(text) });
}

export function noteMoved(ctx: ServiceContext, connectionId: string, name: string): void {
  filesOf(ctx).delete(keyOf(connectionId, name));
}
