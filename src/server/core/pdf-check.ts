import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { Worker } from 'node:worker_threads';

/** Whether uploaded bytes are a PDF that a reader can open, and why not. */
export type PdfVerdict = { ok: true; pages: number } | { ok: false; reason: string };

export interface PdfCheckerOptions {
  /** Time one document may take to open before it is refused. */
  timeoutMs: number;
  /** Largest decoded stream (object and cross-reference streams) the check inflates. */
  maxDecodedStreamBytes: number;
  /** V8 heap of the checking thread. */
  maxHeapMb: number;
}

export const defaultPdfCheckerOptions: PdfCheckerOptions = {
  timeoutMs: 5_000,
  maxDecodedStreamBytes: 64 * 1024 * 1024,
  maxHeapMb: 256,
};

const PDF_HEADER = '%PDF-';
/** PDF 32000-1 7.5.5: %%EOF ends the file; readers look for it in the last 1024 bytes. */
const EOF_MARKER = '%%EOF';
const EOF_WINDOW = 1024;

/**
 * The check runs pdf-lib in a worker thread: a hostile upload (a deflate bomb in an object
 * stream, a parse that never ends) costs that thread, which is terminated, never the service.
 * The worker caps every decoded stream by patching pdf-lib's DecodeStream buffer growth.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const { PDFDocument } = require(workerData.pdfLibMain);
const DecodeStream = require(workerData.decodeStreamModule).default;
const grow = DecodeStream.prototype.ensureBuffer;
const OVER_LIMIT = 'a compressed stream expands beyond the limit';
// pdf-lib rewords errors thrown while parsing an object, so the cause is remembered here.
let overLimit = false;
DecodeStream.prototype.ensureBuffer = function (requested) {
  if (requested > workerData.maxDecodedStreamBytes) {
    overLimit = true;
    throw new Error(OVER_LIMIT);
  }
  return grow.call(this, requested);
};
parentPort.on('message', async (bytes) => {
  overLimit = false;
  try {
    const doc = await PDFDocument.load(bytes, {
      ignoreEncryption: true,
      throwOnInvalidObject: true,
      updateMetadata: false,
    });
    parentPort.postMessage({ ok: true, pages: doc.getPageCount() });
  } catch (error) {
    // pdf-lib's own errors describe the file; a TypeError or RangeError is its code tripping on it.
    const reason = overLimit
      ? OVER_LIMIT
      : error instanceof TypeError || error instanceof RangeError
        ? 'its structure is damaged'
        : String((error && error.message) || error);
    parentPort.postMessage({ ok: false, reason });
  }
});
`;

function pdfLibPaths() {
  const pdfLibMain = createRequire(import.meta.url).resolve('pdf-lib');
  return {
    pdfLibMain,
    decodeStreamModule: join(dirname(pdfLibMain), 'core', 'streams', 'DecodeStream.js'),
  };
}

/** The cheap structural checks, before any parsing: header and end-of-file marker. */
export function pdfFramingProblem(bytes: Uint8Array): string | null {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (buffer.subarray(0, PDF_HEADER.length).toString('latin1') !== PDF_HEADER) {
    return 'file_content is not a PDF (it does not start with %PDF-)';
  }
  // pdf-lib opens a file cut before its trailer, so the marker is what shows it is whole.
  if (!buffer.subarray(-EOF_WINDOW).toString('latin1').includes(EOF_MARKER)) {
    return 'file_content is a truncated PDF (no %%EOF at the end)';
  }
  return null;
}

/**
 * Opens PDFs with pdf-lib in one reusable worker thread, one document at a time (the machine
 * is small; a check of a normal bill of lading takes milliseconds once the worker is warm).
 */
export class PdfChecker {
  private worker: Worker | null = null;
  private queue: Promise<unknown> = Promise.resolve();

  constructor(private readonly options: PdfCheckerOptions = defaultPdfCheckerOptions) {}

  /** A verdict for the bytes; rejects only when the checker itself cannot run. */
  check(bytes: Uint8Array): Promise<PdfVerdict> {
    const framing = pdfFramingProblem(bytes);
    if (framing) return Promise.resolve({ ok: false, reason: framing });
    const run = this.queue.then(() => this.open(bytes));
    this.queue = run.catch(() => undefined);
    return run;
  }

  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = null;
    if (worker) await worker.terminate();
  }

  private workerNow(): Worker {
    if (!this.worker) {
      const worker = new Worker(WORKER_SOURCE, {
        eval: true,
        workerData: { ...pdfLibPaths(), maxDecodedStreamBytes: this.options.maxDecodedStreamBytes },
        resourceLimits: { maxOldGenerationSizeMb: this.options.maxHeapMb },
      });
      // An idle checker must not keep a process (a test, the CLI) alive.
      worker.unref();
      this.worker = worker;
    }
    return this.worker;
  }

  private open(bytes: Uint8Array): Promise<PdfVerdict> {
    const worker = this.workerNow();
    return new Promise<PdfVerdict>((resolve, reject) => {
      const finish = (settle: () => void, discardWorker: boolean) => {
        clearTimeout(timer);
        worker.off('message', onMessage);
        worker.off('error', onError);
        worker.off('exit', onExit);
        if (discardWorker && this.worker === worker) {
          this.worker = null;
          void worker.terminate();
        }
        settle();
      };
      const onMessage = (verdict: PdfVerdict) =>
        finish(
          () =>
            resolve(
              verdict.ok
                ? verdict
                : {
                    ok: false,
                    reason: `file_content is not a readable PDF (${verdict.reason.slice(0, 160)})`,
                  },
            ),
          false,
        );
      const onError = (error: Error & { code?: string }) =>
        finish(
          () =>
            error.code === 'ERR_WORKER_OUT_OF_MEMORY'
              ? resolve({ ok: false, reason: 'file_content is a PDF too large to open' })
              : reject(error),
          true,
        );
      const onExit = () =>
        finish(() => reject(new Error('the PDF check stopped unexpectedly')), true);
      const timer = setTimeout(
        () =>
          finish(
            () =>
              resolve({ ok: false, reason: 'file_content is a PDF that takes too long to open' }),
            true,
          ),
        this.options.timeoutMs,
      );
      worker.on('message', onMessage);
      worker.once('error', onError);
      worker.once('exit', onExit);
      worker.postMessage(bytes);
    });
  }
}
