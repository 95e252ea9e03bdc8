import { afterEach, describe, expect, it } from 'vitest';
import { PrinterSendError, sendToPrinter } from '../../src/main/documents/label-printer';
import { refusedPort, startLoopbackPrinter, type LoopbackPrinter } from './printer-loopback';

let printer: LoopbackPrinter | undefined;
afterEach(async () => {
  await printer?.close();
  printer = undefined;
});

describe('raw TCP label printer (port 9100 protocol)', () => {
  it('delivers every byte, then half-closes', async () => {
    printer = await startLoopbackPrinter();
    const zpl = '^XA^FO10,10^A0N,30,30^FDhello ü^FS^XZ\n';
    await sendToPrinter({ host: '127.0.0.1', port: printer.port }, zpl);
    const [job] = await printer.waitForJobs(1);
    expect(job!.toString('utf8')).toBe(zpl);
  });

  it('a large job arrives whole', async () => {
    printer = await startLoopbackPrinter();
    const data = Buffer.alloc(3 * 1024 * 1024, 'A');
    await sendToPrinter({ host: '127.0.0.1', port: printer.port }, data);
    const [job] = await printer.waitForJobs(1);
    expect(job!.equals(data)).toBe(true);
  });

  it('a refused connection is a clear error', async () => {
    const port = await refusedPort();
    const failure = await sendToPrinter({ host: '127.0.0.1', port }, '^XA^XZ').catch(
      (e: unknown) => e,
    );
    expect(failure).toBeInstanceOf(PrinterSendError);
    expect((failure as PrinterSendError).reason).toBe('refused');
    expect((failure as PrinterSendError).message).toBe(
      `The label printer at 127.0.0.1:${port} refused the connection`,
    );
  });

  it('a printer that does not take the bytes times out', async () => {
    // The listener never reads: once the socket buffers are full, the write cannot finish.
    printer = await startLoopbackPrinter({ pauseOnConnect: true });
    const data = Buffer.alloc(64 * 1024 * 1024, 'Z');
    const failure = await sendToPrinter({ host: '127.0.0.1', port: printer.port }, data, 300).catch(
      (e: unknown) => e,
    );
    expect(failure).toBeInstanceOf(PrinterSendError);
    expect((failure as PrinterSendError).reason).toBe('timeout');
    expect((failure as PrinterSendError).message).toBe(
      `The label printer at 127.0.0.1:${printer.port} did not take the labels within 0.3 s`,
    );
  });

  it('an unknown host name is named', async () => {
    const failure = await sendToPrinter(
      { host: 'printer.invalid', port: 9100 },
      '^XA^XZ',
      3000,
    ).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(PrinterSendError);
    expect(['unreachable', 'timeout']).toContain((failure as PrinterSendError).reason);
  });
});
