const loopbackNames = new Set(['localhost', '127.0.0.1', '::1']);

/** The host name of a Host header, without port or IPv6 brackets; null when malformed. */
export function hostNameOf(hostHeader: string | undefined): string | null {
  if (!hostHeader) return null;
  const match = /^(?:\[([0-9a-fA-F:.]+)\]|([^:[\]]+))(?::(\d{1,5}))?$/.exec(hostHeader.trim());
  if (!match) return null;
  return (match[1] ?? match[2] ?? '').toLowerCase();
}

/**
 * DNS-rebinding guard: a page on an attacker's domain that resolves to 127.0.0.1 still sends its
 * own name as Host, so only loopback names and the configured bind host are served.
 */
export function createHostGuard(configuredHost: string, extraHosts: string[] = []) {
  const allowed = new Set([...loopbackNames, ...extraHosts.map((h) => h.toLowerCase())]);
  const wildcard = configuredHost === '0.0.0.0' || configuredHost === '::';
  if (!wildcard) allowed.add(configuredHost.toLowerCase());
  return (hostHeader: string | undefined): boolean => {
    const name = hostNameOf(hostHeader);
    return name !== null && (allowed.has(name) || /^127(?:\.\d{1,3}){3}$/.test(name));
  };
}
