import { connect } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import {
  PRINTER_FAILED_MESSAGE,
  PrinterAddressRefused,
  PrinterSendError,
  sendToPrinter,
  type PrinterNetwork,
} from '../../src/server/documents/label-printer';
import { forbiddenPrinterAddress } from '../../src/server/documents/printer-address';
import { refusedPort, startLoopbackPrinter, type LoopbackPrinter } from './printer-loopback';

let printer: LoopbackPrinter | undefined;
afterEach(async () => {
  await printer?.close();
  printer = undefined;
});

/** The printer's address as configured: a LAN address (TEST-NET-1); the test seam leads it to loopback. */
const LAN = { host: '192.0.2.10', port: 9100 };

/** Connections go to `port` on loopback instead (the seam the service's tests use too). */
function toLoopback(port: number, lookup?: PrinterNetwork['lookup']): Partial<PrinterNetwork> {
  return { connect: () => connect({ port, host: '127.0.0.1' }), ...(lookup ? { lookup } : {}) };
}

async function failureOf(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => new Error('it was sent'),
    (e: unknown) => e,
  );
}

describe('raw TCP label printer (port 9100 protocol)', () => {
  it('delivers every byte, then half-closes', async () => {
    printer = await startLoopbackPrinter();
    const zpl = '^XA^FO10,10^A0N,30,30^FDhello ü^FS^XZ\n';
    await sendToPrinter(LAN, zpl, { network: toLoopback(printer.port) });
    const [job] = await printer.waitForJobs(1);
    expect(job!.toString('utf8')).toBe(zpl);
  });

  it('a large job arrives whole', async () => {
    printer = await startLoopbackPrinter();
    const data = Buffer.alloc(3 * 1024 * 1024, 'A');
    await sendToPrinter(LAN, data, { network: toLoopback(printer.port) });
    const [job] = await printer.waitForJobs(1);
    expect(job!.equals(data)).toBe(true);
  });

  it('refused, timed out and unknown names all answer the one message', async () => {
    const refused = await failureOf(
      sendToPrinter(LAN, '^XA^XZ', { network: toLoopback(await refusedPort()) }),
    );
    // The listener never reads: once the socket buffers are full, the write cannot finish.
    printer = await startLoopbackPrinter({ pauseOnConnect: true });
    const timedOut = await failureOf(
      sendToPrinter(LAN, Buffer.alloc(64 * 1024 * 1024, 'Z'), {
        timeoutMs: 300,
        network: toLoopback(printer.port),
      }),
    );
    const unknown = await failureOf(
      sendToPrinter({ host: 'printer.invalid', port: 9100 }, '^XA^XZ', {
        network: {
          lookup: () => Promise.reject(Object.assign(new Error('x'), { code: 'ENOTFOUND' })),
        },
      }),
    );
    for (const failure of [refused, timedOut, unknown]) {
      expect(failure).toBeInstanceOf(PrinterSendError);
      expect((failure as Error).message).toBe(PRINTER_FAILED_MESSAGE);
      expect(Object.keys(failure as object)).toEqual([]);
    }
  });
});

describe('where a label printer may be', () => {
  it('only printer ports', async () => {
    for (const port of [22, 80, 443, 8787, 9103, 65535]) {
      const failure = await failureOf(sendToPrinter({ host: '192.0.2.10', port }, '^XA^XZ'));
      expect(failure).toBeInstanceOf(PrinterAddressRefused);
      expect((failure as Error).message).toBe(
        `The label printer cannot be at 192.0.2.10:${port} (port ${port} is not a printer port); an admin sets another in Settings`,
      );
    }
  });

  it('never loopback, link-local, unspecified or multicast, also mapped into IPv6', () => {
    for (const address of [
      '127.0.0.1',
      '127.8.9.10',
      '::1',
      '::ffff:127.0.0.1',
      '::ffff:7f00:1',
      '::127.0.0.1',
      '169.254.169.254',
      'fe80::1',
      'febf::1',
      '0.0.0.0',
      '::',
      '224.0.0.1',
      'ff02::1',
    ]) {
      expect(forbiddenPrinterAddress(address), address).not.toBeNull();
    }
    for (const address of ['192.0.2.10', '10.0.0.7', '172.16.4.2', '2001:db8::10', 'fec0::1']) {
      expect(forbiddenPrinterAddress(address), address).toBeNull();
    }
  });

  it('a host name resolving to loopback or link-local is refused before any connection', async () => {
    printer = await startLoopbackPrinter();
    for (const answer of [['127.0.0.1'], ['192.0.2.10', '169.254.169.254'], ['::1']]) {
      const failure = await failureOf(
        sendToPrinter({ host: 'zebra.lan', port: 9100 }, '^XA^XZ', {
          network: toLoopback(printer.port, () =>
            Promise.resolve(answer.map((address) => ({ address }))),
          ),
        }),
      );
      expect(failure).toBeInstanceOf(PrinterAddressRefused);
      expect((failure as Error).message).toMatch(
        /^The label printer cannot be at zebra\.lan:9100 \(it resolves to /,
      );
    }
    // The real resolver: "localhost" is this machine.
    const local = await failureOf(sendToPrinter({ host: 'localhost', port: 9100 }, '^XA^XZ'));
    expect(local).toBeInstanceOf(PrinterAddressRefused);
    expect(printer.jobs).toEqual([]);
  });

  it("the service's own port is refused", async () => {
    const failure = await failureOf(
      sendToPrinter({ host: '192.0.2.10', port: 9100 }, '^XA^XZ', { servicePorts: [9100] }),
    );
    expect(failure).toBeInstanceOf(PrinterAddressRefused);
    expect((failure as Error).message).toContain('a port of this service');
  });

  it('the connection goes to the address that was checked, not to a second lookup', async () => {
    printer = await startLoopbackPrinter();
    const dialled: string[] = [];
    let lookups = 0;
    await sendToPrinter({ host: 'zebra.lan', port: 9101 }, '^XA^XZ', {
      network: {
        lookup: () => {
          lookups += 1;
          return Promise.resolve([{ address: '192.0.2.44' }]);
        },
        connect: (port, address) => {
          dialled.push(`${address}:${port}`);
          return connect({ port: printer!.port, host: '127.0.0.1' });
        },
      },
    });
    expect(lookups).toBe(1);
    expect(dialled).toEqual(['192.0.2.44:9101']);
  });
});
