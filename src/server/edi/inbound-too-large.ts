/**
 * A polled file larger than a file may be (INBOUND_MAX_BYTES): refused, and recorded for its
 * connection so the EDI inbox lists it like any refused file, with its size in clerk words.
 * Nothing of its content is kept (a file refused by its size alone was never read), so it has no
 * text to show or download and nothing to reprocess (./inbox.ts).
 */
import { humanSize } from '../../shared/human-size';
import type { ServiceContext } from '../core/context';
import { recordRefusal, type RefusedSize } from './ingest-refusal';
import type { InterchangeSource } from './tables';

/**
 * Why the file was refused, in clerk words. A file barely over the limit reads the same in MB as
 * the limit; then both are said in bytes, so the sentence never claims "16 MB, larger than 16 MB".
 */
export function tooLargeReason(size: RefusedSize): string {
  let file = humanSize(size.bytes);
  let limit = humanSize(size.max_bytes);
  if (parseFloat(file) === parseFloat(limit) && file.split(' ')[1] === limit.split(' ')[1]) {
    file = `${size.bytes.toLocaleString('en-US')} bytes`;
    limit = `${size.max_bytes.toLocaleString('en-US')} bytes`;
  }
  const fate = size.unread
    ? 'it goes to error/ unread'
    : 'it goes to error/ and nothing of it was taken in';
  return (
    `The file is ${file}, larger than the ${limit} a file may be; ${fate}. ` +
    'Ask the retailer to send it in smaller files.'
  );
}

/** The reason of a stored too-large refusal, from its summary's size (else its stored words). */
export function storedTooLargeReason(summary: {
  bytes?: number;
  max_bytes?: number;
  unread?: boolean;
  refused?: string | null;
}): string {
  if (summary.bytes === undefined || summary.max_bytes === undefined) {
    return summary.refused ?? 'The file was too large to take in';
  }
  return tooLargeReason({
    bytes: summary.bytes,
    max_bytes: summary.max_bytes,
    unread: summary.unread ?? true,
  });
}

/** Records the refusal for the polled source's connection: an empty text, the size in the summary. */
export async function recordTooLarge(
  ctx: ServiceContext,
  file: { connectionId: string; source: InterchangeSource; fileName: string },
  size: RefusedSize,
): Promise<string> {
  const reason = tooLargeReason(size);
  await recordRefusal(
    ctx,
    {
      text: '',
      source: file.source,
      fileName: file.fileName,
      userId: null,
      knownConnectionId: file.connectionId,
    },
    { kind: 'too_large', message: reason, interchange: null, size },
  );
  return reason;
}
