import { BOL_MAX_FILE_BYTES } from '../../../../shared/orders';

/** The service's limit on a bill-of-lading PDF (endpoint 7), checked here before any upload. */
export const MAX_BOL_BYTES = BOL_MAX_FILE_BYTES;

/** Every PDF starts with these bytes; the service checks them too. */
const PDF_MAGIC = [0x25, 0x50, 0x44, 0x46, 0x2d]; // "%PDF-"

export type BolFileCheck = { ok: true } | { ok: false; reason: string };

function megabytes(bytes: number): string {
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/**
 * Whether a chosen file may go to the service as a bill of lading: a PDF (by its first bytes,
 * not its name) of at most 10 MB. `head` is the file's first bytes (at least 5 are needed).
 */
export function checkBolFile(file: { name: string; size: number }, head: Uint8Array): BolFileCheck {
  if (file.size === 0) return { ok: false, reason: `${file.name} is empty.` };
  if (file.size > MAX_BOL_BYTES) {
    return {
      ok: false,
      reason: `${file.name} is ${megabytes(file.size)}; a bill of lading may be at most 10 MB.`,
    };
  }
  const isPdf = PDF_MAGIC.every((byte, index) => head[index] === byte);
  if (!isPdf) {
    return {
      ok: false,
      reason: `${file.name} is not a PDF. Choose the bill of lading as a PDF file.`,
    };
  }
  return { ok: true };
}

/**
 * The value of a `datetime-local` input (`2026-11-22T14:30` or with seconds) in the
 * interface's `YYYY-MM-DD HH:mm:ss`; null when it is not such a value.
 */
export function scheduledDeliveryOf(local: string): string | null {
  const match = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2})(:\d{2})?$/.exec(local);
  if (!match) return null;
  return `${match[1]} ${match[2]}${match[3] ?? ':00'}`;
}

/** Base64 of `bytes`, in slices so a 10 MB file does not overflow the call stack. */
export function base64Of(bytes: Uint8Array): string {
  const SLICE = 0x8000;
  let binary = '';
  for (let start = 0; start < bytes.length; start += SLICE) {
    binary += String.fromCharCode(...bytes.subarray(start, start + SLICE));
  }
  return btoa(binary);
}
