/**
 * Wraps a transaction set's segments (as the 997 builder returns them) in ISA/GS…GE/IEA with
 * '*', '>' and '~', for tests only: the service's real writer is src/server/edi/x12/writer.ts.
 */
export function envelope(
  set: string[][],
  options: { functionalId: string; groupControl: string; interchangeControl: string },
): string {
  const pad = (value: string, width: number) => value.padEnd(width, ' ');
  const isa = [
    'ISA',
    '00',
    pad('', 10),
    '00',
    pad('', 10),
    'ZZ',
    pad('ACMEBRANDS', 15),
    'ZZ',
    pad('NORTHMARKET', 15),
    '260115',
    '1031',
    'U',
    '00401',
    options.interchangeControl.padStart(9, '0'),
    '0',
    'P',
    '>',
  ];
  const segments = [
    isa,
    [
      'GS',
      options.functionalId,
      'ACMEBRANDS',
      'NORTHMARKET',
      '20260115',
      '1031',
      options.groupControl,
      'X',
      '004010',
    ],
    ...set,
    ['GE', '1', options.groupControl],
    ['IEA', '1', options.interchangeControl.padStart(9, '0')],
  ];
  return segments.map((values) => `${values.join('*')}~\n`).join('');
}
