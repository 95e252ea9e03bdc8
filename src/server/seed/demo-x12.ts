/**
 * The X12 files the demo's retailers "send" (850, 860, 997), written with the app's own writer
 * from the demo's orders, so that the real inbound path takes them in. Pure: no I/O.
 */
import { writeInterchange, type Segment } from '../edi';

export interface PartnerEdi {
  sender_qualifier: string;
  sender_id: string;
  receiver_qualifier: string;
  receiver_id: string;
  version: string;
  usage_indicator: 'P' | 'T';
}

interface Contact {
  name?: string;
  address_line1?: string;
  address_line2?: string;
  city?: string;
  province?: string;
  state?: string;
  zip?: string;
  country?: string;
  dc_number?: string;
  facility_code?: string;
  address_number?: string;
}

export interface DemoPo {
  po_number: string;
  purchase_order_type?: string | null;
  dept_number?: string | null;
  created_at: string;
  dates?: Record<string, string | null | undefined>;
  address_data?: Record<string, Contact | undefined>;
  items: {
    sku: string;
    upc?: string;
    quantity: number;
    case_pack_quantity?: number;
    description?: string;
  }[];
}

/** DTM01 per order date (DESIGN.md, "850 → order"). */
const DATE_QUALIFIERS: [string, string][] = [
  ['requested_ship_date', '010'],
  ['requested_delivery_date', '002'],
  ['cancel_by_date', '001'],
  ['earliest_ship_date', '037'],
  ['latest_ship_date', '038'],
  ['earliest_delivery_date', '064'],
  ['latest_delivery_date', '063'],
];

const ymd = (iso: string) => iso.slice(0, 10).replaceAll('-', '');

/** A fixed unit price per SKU (the demo's PO prices), so every start prices the same. */
export function demoUnitPrice(sku: string): string {
  let sum = 0;
  for (const char of sku) sum = (sum * 31 + char.charCodeAt(0)) % 9000;
  return (4 + (sum % 60) + 0.5 * (sum % 2)).toFixed(2);
}

function party(code: string, contact: Contact | undefined, id: string | undefined): Segment[] {
  if (!contact?.name) return [];
  const lines = [contact.address_line1, contact.address_line2].filter((l): l is string => !!l);
  return [
    id ? ['N1', code, contact.name, '92', id] : ['N1', code, contact.name],
    ...(lines.length > 0 ? [['N3', ...lines]] : []),
    [
      'N4',
      contact.city ?? '',
      contact.province ?? contact.state ?? '',
      contact.zip ?? '',
      contact.country ?? '',
    ],
  ];
}

/** The 850 body (between ST and SE) of a demo order; `quantities` overrides lines by index. */
export function purchaseOrderBody(
  po: DemoPo,
  facilityCode: string,
  options: { cancel?: boolean; quantities?: Record<number, number> } = {},
): Segment[] {
  if (options.cancel) {
    return [
      ['BEG', '01', po.purchase_order_type ?? 'SA', po.po_number, '', ymd(po.created_at)],
      ['CTT', '0'],
    ];
  }
  const address = po.address_data ?? {};
  const shipTo = address['ship_to_contact'];
  const lines = po.items.map((item, index) => ({
    ...item,
    quantity: options.quantities?.[index] ?? item.quantity,
  }));
  return [
    ['BEG', '00', po.purchase_order_type ?? 'SA', po.po_number, '', ymd(po.created_at)],
    ...(po.dept_number ? [['REF', 'DP', po.dept_number]] : []),
    ...DATE_QUALIFIERS.flatMap(([field, qualifier]) => {
      const value = po.dates?.[field];
      return value ? [['DTM', qualifier, ymd(value)]] : [];
    }),
    ...party('ST', shipTo, shipTo?.dc_number),
    ...party('BT', address['bill_to_contact'], address['bill_to_contact']?.address_number),
    ...party('Z7', address['mark_for_contact'], address['mark_for_contact']?.address_number),
    ['N1', 'SF', 'Demo warehouse', 'ZZ', facilityCode],
    ...lines.flatMap((item, index): Segment[] => [
      [
        'PO1',
        String(index + 1),
        String(item.quantity),
        'EA',
        demoUnitPrice(item.sku),
        'PE',
        ...(item.upc ? ['UP', item.upc] : []),
        'VN',
        item.sku,
      ],
      ...(item.description ? [['PID', 'F', '', '', '', item.description]] : []),
      ...(item.case_pack_quantity ? [['PO4', String(item.case_pack_quantity)]] : []),
    ]),
    ['CTT', String(lines.length), String(lines.reduce((sum, l) => sum + l.quantity, 0))],
  ];
}

/** An 860 that sets line `lineId`'s quantity (POC02 CA: changes to the line). */
export function quantityChangeBody(
  poNumber: string,
  poDate: string,
  lineId: string,
  quantity: number,
): Segment[] {
  return [
    ['BCH', '04', 'SA', poNumber, '', '', ymd(poDate)],
    ['POC', lineId, 'CA', String(quantity), '', 'EA'],
    ['CTT', '1'],
  ];
}

/** A 997 for one of our outbound groups: every set gets `code` (A, E or R). */
export function acknowledgmentBody(
  functionalId: string,
  group: number,
  set: { type: string; control: string },
  code: 'A' | 'E' | 'R',
): Segment[] {
  const problem: Segment[] =
    code === 'A'
      ? []
      : code === 'E'
        ? [
            ['AK3', 'REF', '3', '', '8'],
            ['AK4', '2', '127', '6', 'BM?'],
          ]
        : [
            ['AK3', 'BAK', '2', '', '8'],
            ['AK4', '3', '324', '7', 'PO?'],
          ];
  return [
    ['AK1', functionalId, String(group)],
    ['AK2', set.type, set.control],
    ...problem,
    code === 'R' ? ['AK5', 'R', '5'] : ['AK5', code],
    ['AK9', code, '1', '1', code === 'R' ? '0' : '1'],
  ];
}

/** An interchange from the retailer (`partner`: the connection's settings, seen from its side). */
export function partnerInterchange(
  partner: PartnerEdi,
  functionalId: 'PO' | 'PC' | 'FA',
  control: number,
  at: Date,
  sets: Segment[][],
): string {
  return writeInterchange({
    edi: partner,
    functionalId,
    interchangeControlNumber: control,
    groupControlNumber: control,
    createdAt: at,
    transactionSets: sets,
  }).text;
}

/** The connection's EDI settings turned round: the retailer sends, we receive. */
export function fromPartner(ours: PartnerEdi): PartnerEdi {
  return {
    ...ours,
    sender_qualifier: ours.receiver_qualifier,
    sender_id: ours.receiver_id,
    receiver_qualifier: ours.sender_qualifier,
    receiver_id: ours.sender_id,
  };
}
