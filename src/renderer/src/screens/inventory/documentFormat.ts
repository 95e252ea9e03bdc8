/**
 * Documents made readable: an X12 interchange one segment per line (its terminator kept, so the
 * text is still a valid interchange), JSON indented. Anything else is shown as it is.
 */
export function readableDocument(body: string, contentType: string): string {
  const type = contentType.toLowerCase();
  if (/^\s*ISA/.test(body)) return x12Lines(body);
  if (type.includes('json') || /^\s*[[{]/.test(body)) {
    try {
      return JSON.stringify(JSON.parse(body) as unknown, null, 2);
    } catch {
      return body;
    }
  }
  return body;
}

/** The ISA segment is fixed width: its 106th character is the segment terminator. */
function x12Lines(body: string): string {
  const text = body.replace(/^\s+/, '');
  const terminator = text.charAt(105);
  if (text.length < 106 || terminator === '' || /[\w*]/.test(terminator)) return body;
  return text
    .split(terminator)
    .map((segment) => segment.replace(/^[\r\n]+|[\r\n]+$/g, ''))
    .filter((segment) => segment !== '')
    .map((segment) => `${segment}${terminator}`)
    .join('\n');
}

/** A file name for the download: the stored one, or one from the kind of document. */
export function downloadNameOf(fileName: string | null, contentType: string): string {
  if (fileName) return fileName;
  return contentType.includes('json') ? 'document.json' : 'document.x12';
}
