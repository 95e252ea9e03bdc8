/**
 * Documents the packing screen hands to the clerk. The window's Content-Security-Policy
 * (default-src 'self', object-src 'none') allows no blob: frames or objects, and the desktop
 * window opens no new windows, so a PDF is saved as a download (components/saveBlob) and opened
 * to print from there.
 */

/** The bytes of a base64 text (the compliance report's `pdf_content`). */
export function bytesOfBase64(base64: string): Uint8Array<ArrayBuffer> {
  const binary = atob(base64.replace(/\s+/g, ''));
  const bytes = new Uint8Array(binary.length);
  for (let index = 0; index < binary.length; index += 1) bytes[index] = binary.charCodeAt(index);
  return bytes;
}

/** Whether `bytes` start as a PDF does (`%PDF-`). */
export function looksLikePdf(bytes: Uint8Array): boolean {
  return [0x25, 0x50, 0x44, 0x46, 0x2d].every((byte, index) => bytes[index] === byte);
}

/** A file name for a label download: the unit's SSCC when it has one. */
export function labelFileName(unit: 'carton' | 'pallet', number: number, sscc: string | null) {
  return sscc ? `label-${sscc}.pdf` : `label-${unit}-${number}.pdf`;
}
