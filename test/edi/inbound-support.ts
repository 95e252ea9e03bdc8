/** Shared pieces of the inbound route tests: interchanges addressed to connection 1, and a poster. */
import { readFileSync } from 'node:fs';
import { id } from '../helpers/fixtures';
import type { TestService } from '../helpers/service';
import { asnBundle } from './support';

const GOLDEN = new URL('./golden/', import.meta.url);

/** Connection 1's EDI identities (test/helpers/fixtures.ts): we are SENDER1, the retailer RECEIVER1. */
export const OURS = 'SENDER1';
export const THEIRS = 'RECEIVER1';

/**
 * A golden interchange readdressed from the retailer (RECEIVER1) to us (SENDER1), with ISA13 =
 * `control` and each PO number in `poNumbers` replaced.
 */
export function goldenFor(
  file: string,
  control: number,
  poNumbers: Record<string, string> = {},
): string {
  let text = readFileSync(new URL(file, GOLDEN), 'utf8')
    .replaceAll('NORTHMARKET    ', THEIRS.padEnd(15, ' '))
    .replaceAll('ACMEBRANDS     ', OURS.padEnd(15, ' '))
    .replaceAll('NORTHMARKET', THEIRS)
    .replaceAll('ACMEBRANDS', OURS);
  const isa13 = /\*(\d{9})\*0\*P\*/.exec(text)![1]!;
  text = text.replaceAll(isa13, String(control).padStart(9, '0'));
  for (const [from, to] of Object.entries(poNumbers)) text = text.replaceAll(from, to);
  return text;
}

/** An X12 interchange from the retailer to us around one group of `sets` (segments as arrays). */
export function interchangeOf(
  functionalId: string,
  groupControl: number,
  control: number,
  sets: string[][][],
): string {
  const isa = [
    'ISA',
    '00',
    ''.padEnd(10),
    '00',
    ''.padEnd(10),
    'ZZ',
    THEIRS.padEnd(15),
    'ZZ',
    OURS.padEnd(15),
    '301001',
    '1200',
    'U',
    '00401',
    String(control).padStart(9, '0'),
    '0',
    'P',
    '>',
  ];
  const segments = [
    isa,
    ['GS', functionalId, THEIRS, OURS, '20301001', '1200', String(groupControl), 'X', '004010'],
    ...sets.flatMap((set, i) => {
      const st = String(i + 1).padStart(4, '0');
      return [['ST', set[0]![0]!, st], ...set.slice(1), ['SE', String(set.length + 1), st]];
    }),
    ['GE', String(sets.length), String(groupControl)],
    ['IEA', '1', String(control).padStart(9, '0')],
  ];
  return segments.map((values) => `${values.join('*')}~\n`).join('');
}

/** What connection 1 does with order documents unless a test says otherwise: 856s out, POs into facility 1. */
export const INBOUND_ORDER_DOCUMENTS = { send: ['856'], facility_id: id('f', 1) };

/**
 * The ASN bundle whose connection 1 takes inbound POs: its `order_documents` are
 * `orderDocuments` (by default INBOUND_ORDER_DOCUMENTS).
 */
export function inboundBundle(url: string, orderDocuments: unknown = INBOUND_ORDER_DOCUMENTS) {
  const bundle = asnBundle(url);
  return {
    ...bundle,
    connections: bundle.connections.map((c) =>
      c.id === id('c', 1) ? { ...c, order_documents: orderDocuments } : c,
    ),
  };
}

/** Connection 1's order documents when it also polls `inbound` (a folder or an SFTP directory). */
export const polledOrderDocuments = (inbound: unknown) => ({ ...INBOUND_ORDER_DOCUMENTS, inbound });

/** The inbound bundle whose connection 1 also polls `inbound` for interchanges. */
export const polledInboundBundle = (url: string, inbound: unknown) =>
  inboundBundle(url, polledOrderDocuments(inbound));

export function postInterchange(
  svc: TestService,
  token: string,
  text: string,
  contentType = 'application/edi-x12',
) {
  return svc.app.inject({
    method: 'POST',
    url: '/api/v1/edi/inbound',
    headers: { authorization: token, 'content-type': contentType },
    payload: text,
  });
}
