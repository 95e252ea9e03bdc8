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

/**
 * A file name for a downloaded document, named like the service names its files: `846_<ISA13>.x12`
 * for an interchange, `feed_<idempotency key>.json` for a direct feed.
 */
export function documentFileName(body: string, contentType: string): string {
  const text = body.replace(/^\s+/, '');
  if (text.startsWith('ISA') && text.length >= 106) {
    const control = text.slice(0, 106).split(text.charAt(3))[13];
    if (control && /^\d+$/.test(control)) return `846_${control}.x12`;
    return 'document.x12';
  }
  if (contentType.includes('json')) {
    try {
      const key = (JSON.parse(body) as { idempotency_key?: unknown }).idempotency_key;
      if (typeof key === 'string' && /^[\w-]+$/.test(key)) return `feed_${key}.json`;
    } catch {
      // Not JSON after all: a generic name.
    }
    return 'document.json';
  }
  return 'document.txt';
}
