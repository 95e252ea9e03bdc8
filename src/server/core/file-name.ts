/** Longest file name kept, `.pdf` included (names are shown and sent back, never used on disk). */
export const MAX_FILE_NAME_LENGTH = 120;
const FALLBACK_NAME = 'bill-of-lading.pdf';
const PDF_EXTENSION = '.pdf';

/**
 * The name a client gave, made safe to show and to send in Content-Disposition: the last path
 * part only (`/` or `\`), no control or format characters (bidi overrides that fake an
 * extension), none of `<>:"|?*`, no leading dots or surrounding spaces, at most
 * MAX_FILE_NAME_LENGTH characters, ending in `.pdf`.
 */
export function sanitiseFileName(raw: string): string {
  const lastPart = raw.normalize('NFC').split(/[/\\]/).pop() ?? '';
  const cleaned = lastPart
    .replace(/[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/gu, '')
    .replace(/[<>:"|?*]/g, '_')
    .replace(/\s+/g, ' ')
    .replace(/^[\s.]+|[\s.]+$/g, '');
  const stem = cleaned.toLowerCase().endsWith(PDF_EXTENSION)
    ? cleaned.slice(0, -PDF_EXTENSION.length).replace(/[\s.]+$/, '')
    : cleaned;
  if (stem === '') return FALLBACK_NAME;
  // Cut by code points, so a surrogate pair is never split.
  const kept = Array.from(stem)
    .slice(0, MAX_FILE_NAME_LENGTH - PDF_EXTENSION.length)
    .join('')
    .trimEnd();
  return `${kept}${PDF_EXTENSION}`;
}

/**
 * `attachment` with an ASCII fallback name and the exact UTF-8 name (RFC 6266, RFC 8187),
 * for a name that sanitiseFileName already cleaned.
 */
export function contentDisposition(fileName: string, disposition: 'attachment' | 'inline') {
  const ascii = fileName.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  const encoded = encodeURIComponent(fileName).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `${disposition}; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}
