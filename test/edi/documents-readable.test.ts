/** How a document reads on screen: X12 one segment per line, JSON indented, anything else as is. */
import { describe, expect, it } from 'vitest';
import { readableContent } from '../../src/server/edi/document-read';

const ISA =
  'ISA*00*          *00*          *ZZ*SENDER1        *ZZ*RECEIVER1      *301001*1200*U*00401*000000001*0*P*>';

describe('readableContent', () => {
  it('puts each X12 segment on its own line, whatever the terminator and line breaks', () => {
    expect(ISA.length).toBe(105);
    const text = `${ISA}~GS*PR*A*B*20301001*1200*1*X*004010~ST*855*0001~SE*2*0001~GE*1*1~IEA*1*000000001~`;
    const lines = readableContent(text).split('\n');
    expect(lines).toEqual([
      `${ISA}~`,
      'GS*PR*A*B*20301001*1200*1*X*004010~',
      'ST*855*0001~',
      'SE*2*0001~',
      'GE*1*1~',
      'IEA*1*000000001~',
    ]);
    // Already one per line (CRLF too), or another terminator: the same lines.
    expect(readableContent(lines.join('\r\n') + '\r\n').split('\n')).toEqual(lines);
    const bang = text.replaceAll('~', '!');
    expect(readableContent(bang).split('\n')).toEqual(lines.map((l) => l.replace(/~$/, '!')));
  });

  it('indents JSON and leaves other text as it is', () => {
    expect(readableContent('{"po":"PO-1","cartons":[{"sscc":"1"}]}')).toBe(
      '{\n  "po": "PO-1",\n  "cartons": [\n    {\n      "sscc": "1"\n    }\n  ]\n}',
    );
    expect(readableContent('not json, not X12')).toBe('not json, not X12');
    expect(readableContent('ISA*short')).toBe('ISA*short');
  });
});
