import { lookup as dnsLookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';
import { networkInterfaces } from 'node:os';
import { LABEL_PRINTER_PORTS, PRINTER_ADDRESS_REFUSED_PREFIX } from '../../shared/documents';
import type { PrinterLookup } from '../core/policies';

export type { PrinterLookup } from '../core/policies';

/**
 * Where a label printer may be: a printer port on another machine of the network. Loopback,
 * link-local (169.254/16, fe80::/10, where cloud metadata services live), unspecified and
 * multicast addresses, this machine's own addresses and the service's own ports are refused, also
 * when a host NAME resolves to one: the printer is a TCP connect-and-write primitive, and it must
 * not become a way to reach this machine's services or scan its neighbours.
 */

/** Addresses a printer never has. */
const FORBIDDEN = new BlockList();
FORBIDDEN.addSubnet('127.0.0.0', 8, 'ipv4');
FORBIDDEN.addSubnet('169.254.0.0', 16, 'ipv4');
FORBIDDEN.addSubnet('0.0.0.0', 8, 'ipv4');
FORBIDDEN.addSubnet('224.0.0.0', 4, 'ipv4');
FORBIDDEN.addAddress('255.255.255.255', 'ipv4');
// ::/96 holds ::, ::1 and the deprecated IPv4-compatible addresses (::127.0.0.1).
FORBIDDEN.addSubnet('::', 96, 'ipv6');
FORBIDDEN.addSubnet('fe80::', 10, 'ipv6');
FORBIDDEN.addSubnet('ff00::', 8, 'ipv6');

/** An IPv4 address mapped into IPv6 (`::ffff:127.0.0.1`) is judged as the IPv4 address. */
function unmapped(address: string): string {
  const match = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(address);
  return match ? match[1]! : address;
}

function ownAddresses(): Set<string> {
  const own = new Set<string>();
  for (const list of Object.values(networkInterfaces())) {
    for (const entry of list ?? []) own.add(unmapped(entry.address.toLowerCase()));
  }
  return own;
}

/** Why an IP address cannot be a label printer's, or null when it can. */
export function forbiddenPrinterAddress(address: string): string | null {
  const ip = unmapped(address.toLowerCase().replace(/%.*$/, ''));
  const family = isIP(ip);
  if (family === 0) return 'not an IP address';
  if (FORBIDDEN.check(ip, family === 4 ? 'ipv4' : 'ipv6')) {
    return 'a loopback, link-local or broadcast address';
  }
  if (ownAddresses().has(ip)) return 'an address of this machine';
  return null;
}

/** The printer's host and port were refused before any connection (HTTP 409). */
export class PrinterAddressRefused extends Error {}

/** How names are resolved; tests may inject one. */
export const systemLookup: PrinterLookup = (host) => dnsLookup(host, { all: true, verbatim: true });

/**
 * The IP address to connect to: the host itself when it is one, else its resolved addresses, every
 * one of which must be allowed (so a name cannot answer a good address to the check and a bad one
 * to the connection: the connection goes to the address checked here). Null when the name does not
 * resolve (a connection failure like any other).
 */
export async function resolvePrinterAddress(
  printer: { host: string; port: number },
  options: { lookup?: PrinterLookup; servicePorts?: readonly number[] } = {},
): Promise<string | null> {
  const refuse = (why: string) =>
    new PrinterAddressRefused(
      `${PRINTER_ADDRESS_REFUSED_PREFIX}${printer.host}:${printer.port} (${why}); an admin sets another in Settings`,
    );
  if (!(LABEL_PRINTER_PORTS as readonly number[]).includes(printer.port)) {
    throw refuse(`port ${printer.port} is not a printer port`);
  }
  if (options.servicePorts?.includes(printer.port)) throw refuse('a port of this service');
  const host = printer.host.replace(/^\[(.*)\]$/, '$1');
  let addresses: string[];
  if (isIP(host)) addresses = [host];
  else {
    try {
      addresses = (await (options.lookup ?? systemLookup)(host)).map((a) => a.address);
    } catch {
      return null;
    }
  }
  if (addresses.length === 0) return null;
  for (const address of addresses) {
    const why = forbiddenPrinterAddress(address);
    if (why) throw refuse(`${isIP(host) ? '' : `it resolves to ${address}, `}${why}`);
  }
  return addresses[0]!;
}
