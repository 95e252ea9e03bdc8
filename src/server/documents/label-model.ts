import type { LabelKind } from '../../shared/documents';

/** What every label of one order shows besides its own unit (the pure builders' input). */
export interface LabelShipment {
  /** The facility that ships: its name and code (facilities have no street address). */
  shipFrom: string[];
  /** The order's ship-to address lines, name first; empty when the order has none. */
  shipTo: string[];
  shipToZip: string | null;
  /** The retailer's distribution centre number, from the ship-to contact. */
  dcNumber: string | null;
  poNumber: string | null;
  picksheetCode: string;
  deptNumber: string | null;
  carrier: string | null;
  proNumber: string | null;
  bolNumber: string | null;
  retailerName: string;
}

/** One carton or pallet to label. */
export interface LabelUnit {
  unit: 'carton' | 'pallet';
  id: string;
  /** Already checked: 18 digits, check digit right. */
  sscc: string;
  /**
   * Position among the order's cartons (or pallets), from 1, and their number: null while
   * packing is open, when more may follow (the label then says "CARTON 3" without "OF").
   */
  sequence: number;
  total: number | null;
  /** Carton: its SKU lines; pallet: its cartons' SKU lines added up by SKU. */
  contents: { sku: string; quantity: number }[];
  /** Pallet only: the cartons on it. */
  cartonCount: number | null;
  units: number;
}

export interface LabelRequest {
  kind: LabelKind;
  shipment: LabelShipment;
  units: LabelUnit[];
}

/** "CARTON 2 OF 5" once packing is complete, "CARTON 2" before. */
export const unitTitle = (unit: LabelUnit) =>
  `${unit.unit === 'carton' ? 'CARTON' : 'PALLET'} ${unit.sequence}${unit.total === null ? '' : ` OF ${unit.total}`}`;

/** What the label prints for a ship-to it lacks: a gap a dock worker cannot miss. */
export const MISSING_SHIP_TO = 'SHIP-TO ADDRESS MISSING';
export const shipToLinesOf = (shipment: LabelShipment) =>
  shipment.shipTo.length > 0 ? shipment.shipTo : [MISSING_SHIP_TO];
export const shipToZipOf = (shipment: LabelShipment) => shipment.shipToZip ?? 'MISSING';

/** "1 carton", "3 cartons". */
export const cartonsText = (count: number) => `${count} ${count === 1 ? 'carton' : 'cartons'}`;

/** GS1 element string of an SSCC (AI 00), as bwip-js and the human-readable line take it. */
export const ssccElementString = (sscc: string) => `(00)${sscc}`;

/**
 * The QR label's content: the SSCC as a GS1 Digital Link URI (GS1's standard for QR codes), so
 * a phone or a scanner reads the same value the GS1-128 barcode carries.
 */
export const ssccDigitalLink = (sscc: string) => `https://id.gs1.org/00/${sscc}`;

/** The label's name in the print record (LABEL_PRINT_METRICS). */
export function labelMetric(unit: LabelUnit['unit'], kind: LabelKind) {
  const what = { gs1: 'GS1 Label', qr: 'QR Code', placard: 'Placard' }[kind];
  return `${unit === 'carton' ? 'Carton' : 'Pallet'} Label Printed - ${what}` as const;
}

/** Placards are for pallets only. */
export const kindFitsUnit = (kind: LabelKind, unit: LabelUnit['unit']) =>
  kind !== 'placard' || unit === 'pallet';
