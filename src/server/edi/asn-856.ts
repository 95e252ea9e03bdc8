/**
 * The 856 Ship Notice/Manifest built from what the warehouse really packed: the order's pallets,
 * cartons and carton lines. Pure: it returns the segments between ST and SE, which
 * x12/writer.ts envelopes. SOTPI (Shipment, Order, Tare, Pack, Item) when the order has
 * pallets, SOPI when it ships as parcel cartons; CTT01 is the HL count (a retailer rejects an
 * ASN whose CTT differs, shared/notes/x12-orders.md).
 */
import { ccyymmdd, cleanText, hhmm, type Segment } from './x12/writer';

export interface AsnParty {
  name: string | null;
  /** N104 with qualifier 92 (assigned by buyer): a DC number or facility code. */
  code: string | null;
  address1?: string | null;
  address2?: string | null;
  city?: string | null;
  state?: string | null;
  zip?: string | null;
  country?: string | null;
}

export interface AsnCartonLine {
  sku: string;
  upc: string | null;
  quantity: number;
}

export interface AsnCarton {
  id: string;
  /** SSCC-18, 18 digits; null when the carton has no label (no MAN is written). */
  sscc: string | null;
  pallet_id: string | null;
  parcel_tracking_number: string | null;
  weight: number | null;
  weight_unit: string | null;
  lines: AsnCartonLine[];
}

export interface AsnPallet {
  id: string;
  sscc: string | null;
  weight: number | null;
  weight_unit: string | null;
}

export interface AsnFacts {
  /** BSN02: the shipment id (the BOL number when there is one, else the picksheet code). */
  shipmentId: string;
  /** BSN03/BSN04: when the notice was made. */
  createdAt: Date;
  /** DTM*011: when the order shipped. */
  shippedAt: Date;
  poNumber: string;
  deptNumber: string | null;
  billOfLadingNumber: string | null;
  proNumber: string | null;
  carrier: string | null;
  carrierAlphaCode: string | null;
  transportationMethod: string | null;
  shipFrom: AsnParty;
  shipTo: AsnParty;
  pallets: AsnPallet[];
  cartons: AsnCarton[];
}

/** BSN05: Shipment, Order, Packaging, Item (the tare level is optional within it). */
const HIERARCHY_PICK_AND_PACK = '0001';
/** ID lengths of X12 4010 elements an ASN must not cut (a cut id names something else). */
const MAX_SHIPMENT_ID = 30; // BSN02 (396)
const MAX_REFERENCE = 30; // REF02 (127)
const MAX_PO = 22; // PRF01 (324)
const MAX_PRODUCT_ID = 48; // LIN03 (234)
const MAX_NAME = 60; // N102 (93)

export function build856(facts: AsnFacts): Segment[] {
  const segments: Segment[] = [];
  const hl = new HlCounter();
  const palletOrder = facts.pallets.length > 0;

  segments.push([
    'BSN',
    '00',
    limitedId(facts.shipmentId, MAX_SHIPMENT_ID, 'shipment id (BSN02)'),
    ccyymmdd(facts.createdAt),
    hhmm(facts.createdAt),
    HIERARCHY_PICK_AND_PACK,
  ]);

  // Shipment level.
  const shipment = hl.next();
  segments.push(['HL', shipment, '', 'S']);
  segments.push(td1(facts, palletOrder));
  const td5 = td5Of(facts);
  if (td5) segments.push(td5);
  if (facts.billOfLadingNumber) {
    segments.push([
      'REF',
      'BM',
      limitedId(facts.billOfLadingNumber, MAX_REFERENCE, 'BOL (REF*BM)'),
    ]);
  }
  if (facts.proNumber) {
    segments.push(['REF', 'CN', limitedId(facts.proNumber, MAX_REFERENCE, 'PRO (REF*CN)')]);
  }
  segments.push(['DTM', '011', ccyymmdd(facts.shippedAt), hhmm(facts.shippedAt)]);
  segments.push(...party('SF', facts.shipFrom), ...party('ST', facts.shipTo));

  // Order level.
  const order = hl.next();
  segments.push(['HL', order, shipment, 'O']);
  segments.push(['PRF', limitedId(facts.poNumber, MAX_PO, 'PO number (PRF01)')]);
  if (facts.deptNumber) segments.push(['REF', 'DP', facts.deptNumber]);

  const cartonsByPallet = new Map<string | null, AsnCarton[]>();
  for (const carton of facts.cartons) {
    const key =
      palletOrder && facts.pallets.some((p) => p.id === carton.pallet_id) ? carton.pallet_id : null;
    const list = cartonsByPallet.get(key) ?? [];
    list.push(carton);
    cartonsByPallet.set(key, list);
  }
  const packs = (cartons: AsnCarton[] | undefined, parent: string) => {
    for (const carton of cartons ?? []) {
      const pack = hl.next();
      segments.push(['HL', pack, parent, 'P']);
      const man = manOf(carton.sscc, carton.parcel_tracking_number);
      if (man) segments.push(man);
      for (const line of linesOf(carton)) {
        const item = hl.next();
        segments.push(['HL', item, pack, 'I']);
        segments.push(linOf(line));
        segments.push(['SN1', '', String(line.quantity), 'EA']);
      }
    }
  };
  if (palletOrder) {
    for (const pallet of facts.pallets) {
      const tare = hl.next();
      segments.push(['HL', tare, order, 'T']);
      const man = manOf(pallet.sscc, null);
      if (man) segments.push(man);
      packs(cartonsByPallet.get(pallet.id), tare);
    }
  }
  // Cartons off any pallet (every carton of a parcel order) hang from the order.
  packs(cartonsByPallet.get(null), order);

  segments.push(['CTT', String(hl.count)]);
  return segments;
}

class HlCounter {
  count = 0;
  next(): string {
    this.count += 1;
    return String(this.count);
  }
}

/** TD1: how many cartons (parcel) or pallets ship, with the gross weight when every one is weighed. */
function td1(facts: AsnFacts, palletOrder: boolean): Segment {
  const units = palletOrder ? facts.pallets : facts.cartons;
  const packaging = palletOrder ? 'PLT94' : 'CTN25';
  const weight = totalWeight(palletOrder ? facts.pallets : facts.cartons);
  return weight
    ? ['TD1', packaging, String(units.length), '', '', '', 'G', weight.value, weight.unit]
    : ['TD1', packaging, String(units.length)];
}

function totalWeight(units: { weight: number | null; weight_unit: string | null }[]) {
  if (units.length === 0) return null;
  const unit = units[0]!.weight_unit;
  if (!unit || units.some((u) => u.weight === null || u.weight_unit !== unit)) return null;
  const code = unitCode(unit);
  if (!code) return null;
  const sum = units.reduce((total, u) => total + (u.weight ?? 0), 0);
  return { value: String(Math.round(sum * 100) / 100), unit: code };
}

function unitCode(unit: string): string | null {
  const u = unit.trim().toLowerCase();
  if (u === 'lb' || u === 'lbs' || u === 'pound' || u === 'pounds') return 'LB';
  if (u === 'kg' || u === 'kgs' || u === 'kilogram' || u === 'kilograms') return 'KG';
  return null;
}

/** TD5: the carrier by SCAC (qualifier 2) and the transport method; null when nothing is known. */
function td5Of(facts: AsnFacts): Segment | null {
  const scac = facts.carrierAlphaCode ? cleanText(facts.carrierAlphaCode) : '';
  const method =
    facts.transportationMethod?.toUpperCase() === 'PARCEL' ? 'U' : scac || facts.carrier ? 'M' : '';
  const name = facts.carrier ? cleanText(facts.carrier).slice(0, 35) : '';
  if (!scac && !name) return null;
  return ['TD5', 'B', scac ? '2' : '', scac, method, name];
}

function party(code: 'SF' | 'ST', p: AsnParty): Segment[] {
  const name = cleanText(p.name ?? '').slice(0, MAX_NAME);
  const id = cleanText(p.code ?? '');
  const segments: Segment[] = [
    id
      ? ['N1', code, name, '92', id]
      : ['N1', code, name || (code === 'SF' ? 'SHIP FROM' : 'SHIP TO')],
  ];
  const street = [p.address1, p.address2].map((v) => cleanText(v ?? '').slice(0, 55));
  if (street[0] || street[1])
    segments.push(['N3', street[0] || street[1]!, street[0] ? street[1]! : '']);
  if (p.city || p.state || p.zip || p.country) {
    segments.push([
      'N4',
      cleanText(p.city ?? '').slice(0, 30),
      cleanText(p.state ?? '').slice(0, 2),
      cleanText(p.zip ?? '').slice(0, 15),
      cleanText(p.country ?? '').slice(0, 3),
    ]);
  }
  return segments;
}

/** MAN*GM*<AI 00 + SSCC-18>, with a parcel tracking number as the second mark (CP). */
function manOf(sscc: string | null, tracking: string | null): Segment | null {
  if (!sscc) return null;
  const mark = `00${sscc}`;
  return tracking ? ['MAN', 'GM', mark, '', 'CP', cleanText(tracking)] : ['MAN', 'GM', mark];
}

function linOf(line: AsnCartonLine): Segment {
  const sku = limitedId(line.sku, MAX_PRODUCT_ID, 'SKU (LIN)');
  return line.upc ? ['LIN', '', 'UP', line.upc, 'VN', sku] : ['LIN', '', 'VN', sku];
}

/** One line per SKU (and UPC) of a carton: a SKU packed in several scans is summed. */
function linesOf(carton: AsnCarton): AsnCartonLine[] {
  const byKey = new Map<string, AsnCartonLine>();
  for (const line of carton.lines) {
    if (line.quantity <= 0) continue;
    const key = `${line.sku}\u0000${line.upc ?? ''}`;
    const known = byKey.get(key);
    if (known) known.quantity += line.quantity;
    else byKey.set(key, { ...line });
  }
  return [...byKey.values()];
}

function limitedId(value: string, max: number, field: string): string {
  const text = cleanText(value);
  if (text === '') throw new Error(`856: ${field} is empty`);
  if (text.length > max)
    throw new Error(`856: ${field} is longer than ${max} characters: "${text}"`);
  return text;
}
