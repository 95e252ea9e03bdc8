import { Socket, connect as netConnect } from 'node:net';
import { PrinterAddressRefused, resolvePrinterAddress } from './printer-address';
import type { PrinterNetwork } from '../core/policies';

export type { PrinterNetwork } from '../core/policies';

/**
 * Raw printing ("JetDirect", TCP 9100): connect, write the bytes, half-close. Label printers send
 * nothing back, so a send succeeds once every byte is handed to the connection and our FIN is
 * sent; waiting for the printer to close could report a failure for labels that did print.
 */

export interface PrinterAddress {
  host: string;
  port: number;
}

/**
 * Every failure to hand the labels over reads the same: whether the port was closed, filtered or
 * unreachable, or the name unknown, is not told apart, so the printer setting cannot be used to
 * map the network (docs/decisions.md, label printer).
 */
export const PRINTER_FAILED_MESSAGE =
  'The label printer did not take the labels; check that it is switched on and connected, or save the labels as PDF';

/** The labels did not reach the printer. */
export class PrinterSendError extends Error {
  constructor() {
    super(PRINTER_FAILED_MESSAGE);
  }
}

export { PrinterAddressRefused };

/** Time for the whole send: name lookup, connection and write. */
export const DEFAULT_PRINTER_TIMEOUT_MS = 5_000;

export interface SendOptions {
  timeoutMs?: number;
  /** Tests only (ServiceContext.labelPrinterNetwork): a stand-in for DNS and TCP. */
  network?: Partial<PrinterNetwork>;
  /** The ports this service listens on: never a printer's. */
  servicePorts?: readonly number[];
}

/**
 * Sends `data` to the printer. The host is resolved and judged first (PrinterAddressRefused), and
 * the connection goes to the address judged; any failure after that is PrinterSendError. Never
 * call inside a transaction.
 */
export async function sendToPrinter(
  printer: PrinterAddress,
  data: Uint8Array | string,
  options: SendOptions = {},
): Promise<void> {
  const timeoutMs = options.timeoutMs ?? options.network?.timeoutMs ?? DEFAULT_PRINTER_TIMEOUT_MS;
  // One deadline from the start: a DNS lookup that hangs must not hold the request past it.
  const deadline = Date.now() + timeoutMs;
  const address = await beforeDeadline(
    resolvePrinterAddress(printer, {
      lookup: options.network?.lookup,
      servicePorts: options.servicePorts,
    }),
    timeoutMs,
  );
  if (address === null) throw new PrinterSendError();
  const left = deadline - Date.now();
  if (left <= 0) throw new PrinterSendError();
  const connect =
    options.network?.connect ?? ((port: number, host: string) => netConnect({ port, host }));
  await writeAll(() => connect(printer.port, address), data, left, timeoutMs);
}

/**
 * `work`, or PrinterSendError once `ms` pass. A system lookup cannot be cancelled (it finishes on
 * its own thread later), but the request no longer waits for it.
 */
async function beforeDeadline<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new PrinterSendError()), ms);
  });
  try {
    return await Promise.race([work, expired]);
  } finally {
    clearTimeout(timer);
  }
}

function writeAll(
  open: () => Socket,
  data: Uint8Array | string,
  timeoutMs: number,
  lingerMs: number,
): Promise<void> {
  return new Promise((resolve, reject) => {
    let socket: Socket;
    try {
      socket = open();
    } catch {
      reject(new PrinterSendError());
      return;
    }
    let settled = false;
    const settle = (failed: boolean) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (failed) {
        socket.destroy();
        reject(new PrinterSendError());
      } else {
        // The printer closes its side when done; do not hold the socket open if it never does.
        socket.setTimeout(lingerMs, () => socket.destroy());
        resolve();
      }
    };
    const timer = setTimeout(() => settle(true), timeoutMs);
    socket.on('error', () => settle(true));
    // Whatever the printer says back (some send status text) is read and dropped.
    socket.on('data', () => undefined);
    socket.once('connect', () => {
      socket.end(data, () => settle(false));
    });
  });
}
