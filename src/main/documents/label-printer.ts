import { Socket } from 'node:net';

/**
 * Raw printing ("JetDirect", TCP 9100): connect, write the bytes, half-close. Label printers send
 * nothing back, so a send succeeds once every byte is handed to the connection and our FIN is
 * sent; waiting for the printer to close could report a failure for labels that did print.
 */

export interface PrinterAddress {
  host: string;
  port: number;
}

/** Why a send failed, in words a clerk can act on. */
export class PrinterSendError extends Error {
  constructor(
    message: string,
    readonly reason: 'refused' | 'timeout' | 'unreachable' | 'failed',
  ) {
    super(message);
  }
}

/** Time for the connection and the whole write. */
export const DEFAULT_PRINTER_TIMEOUT_MS = 5_000;

const describe = ({ host, port }: PrinterAddress) =>
  `${host.includes(':') ? `[${host}]` : host}:${port}`;

function failureOf(error: NodeJS.ErrnoException, printer: PrinterAddress): PrinterSendError {
  const at = describe(printer);
  switch (error.code) {
    case 'ECONNREFUSED':
      return new PrinterSendError(`The label printer at ${at} refused the connection`, 'refused');
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return new PrinterSendError(
        `The label printer host ${printer.host} was not found`,
        'unreachable',
      );
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return new PrinterSendError(`The label printer at ${at} is unreachable`, 'unreachable');
    default:
      return new PrinterSendError(
        `Sending to the label printer at ${at} failed: ${error.code ?? error.message}`,
        'failed',
      );
  }
}

/** Sends `data` to the printer; rejects with PrinterSendError. Never call inside a transaction. */
export function sendToPrinter(
  printer: PrinterAddress,
  data: Uint8Array | string,
  timeoutMs = DEFAULT_PRINTER_TIMEOUT_MS,
): Promise<void> {
  return new Promise((resolve, reject) => {
    const socket = new Socket();
    let settled = false;
    const settle = (error?: PrinterSendError) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (error) {
        socket.destroy();
        reject(error);
      } else {
        // The printer closes its side when done; do not hold the socket open if it never does.
        socket.setTimeout(timeoutMs, () => socket.destroy());
        resolve();
      }
    };
    const timer = setTimeout(() => {
      settle(
        new PrinterSendError(
          `The label printer at ${describe(printer)} did not take the labels within ${timeoutMs / 1000} s`,
          'timeout',
        ),
      );
    }, timeoutMs);
    socket.on('error', (error: NodeJS.ErrnoException) => settle(failureOf(error, printer)));
    // Whatever the printer says back (some send status text) is read and dropped.
    socket.on('data', () => undefined);
    socket.connect(printer.port, printer.host, () => {
      socket.end(data, () => settle());
    });
  });
}
