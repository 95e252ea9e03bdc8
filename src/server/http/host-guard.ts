const IPV4_LOOPBACK = /^127(?:\.\d{1,3}){3}$/;

/** The host name of a Host header, without port or IPv6 brackets; null when malformed. */
export function hostNameOf(hostHeader: string | undefined): string | null {
  if (!hostHeader) return null;
  const match = /^(?:\[([0-9a-fA-F:.]+)\]|([^:[\]]+))(?::(\d{1,5}))?$/.exec(hostHeader.trim());
  if (!match) return null;
  return (match[1] ?? match[2] ?? '').toLowerCase();
}

/** A peer address (socket.remoteAddress) on this machine: 127.x, ::1, or 127.x mapped into IPv6. */
export function isLoopbackAddress(address: string | undefined): boolean {
  if (!address) return false;
  const lower = address.toLowerCase();
  const v4 = lower.startsWith('::ffff:') ? lower.slice('::ffff:'.length) : lower;
  return v4 === '::1' || IPV4_LOOPBACK.test(v4);
}

/** A host name or address that only ever means this machine: localhost, 127.x, ::1. */
export function isLoopbackHost(name: string): boolean {
  const lower = name.toLowerCase();
  return lower === 'localhost' || isLoopbackAddress(lower);
}

/**
 * Why a bind host and its allowed names cannot start, or null when they can. Anything but a
 * loopback bind is reachable from the network, so the names remote clients use must be listed.
 */
export function exposureProblem(bindHost: string, allowedHosts: string[]): string | null {
  if (isLoopbackHost(bindHost) || allowedHosts.length > 0) return null;
  return (
    `--host ${bindHost} is reachable from the network: name the host names remote clients ` +
    `will use with --allowed-host NAME (repeatable; env ALLOWED_HOST, comma-separated), ` +
    `e.g. --allowed-host warehouse-pc.lan`
  );
}

/** Printed on stderr when the service listens beyond loopback. */
export function plainHttpWarning(bindHost: string): string | null {
  if (isLoopbackHost(bindHost)) return null;
  return (
    `warning: listening on ${bindHost} over plain HTTP; passwords and tokens cross the network ` +
    `unencrypted. Put a TLS-terminating reverse proxy in front for remote clients.`
  );
}

/**
 * Which requests may be served, by their Host header and the peer's address.
 * - DNS rebinding: a page on an attacker's domain that resolves to this machine still sends its
 *   own name as Host, so only loopback names and the allowed names are served.
 * - A remote peer sending `Host: 127.0.0.1` is not local: loopback names count only from
 *   loopback peers. Remote clients must use one of `allowedHosts` (`--allowed-host`).
 */
export function createHostGuard(allowedHosts: string[] = []) {
  const allowed = new Set(allowedHosts.map((h) => hostNameOf(h) ?? h.toLowerCase()));
  return (hostHeader: string | undefined, peerAddress: string | undefined): boolean => {
    const name = hostNameOf(hostHeader);
    if (name === null) return false;
    if (allowed.has(name)) return true;
    return isLoopbackHost(name) && isLoopbackAddress(peerAddress);
  };
}
