import type {
  FulfilmentCarton,
  FulfilmentPallet,
  FulfilmentView,
} from '../../../../shared/fulfilment';
import { gs1CheckDigit, isValidSscc } from '../../../../shared/sscc';

/**
 * What a scan at the packing station means. A scanner types the code and Enter; a GS1-128 scanner
 * may prefix a symbology identifier (`]C1`) and put a group separator in, and a clerk may type the
 * human-readable line under a label (`(00) 0 0614141 000000123 4`).
 */

export type ScanReading =
  | { kind: 'empty' }
  /** An SSCC-18 with a valid check digit (a carton's or a pallet's). */
  | { kind: 'sscc'; sscc: string; code: string }
  /** Anything else: a SKU, UPC or case barcode for the service to match. */
  | { kind: 'item'; code: string };

const SYMBOLOGY_ID = /^\][A-Za-z][0-9A-Za-z]/;
/** FNC1 as a GS1 scanner sends it between element strings (ASCII 29). */
const GROUP_SEPARATOR = String.fromCharCode(29);

export { gs1CheckDigit, isValidSscc };

/** Reads one scan: an SSCC (with or without its `(00)` application identifier) or an item code. */
export function readScan(raw: string): ScanReading {
  const code = raw.replace(SYMBOLOGY_ID, '').replaceAll(GROUP_SEPARATOR, '').trim();
  if (code === '') return { kind: 'empty' };
  const compact = code.replace(/[\s()]/g, '');
  const sscc = /^00\d{18}$/.test(compact) ? compact.slice(2) : compact;
  if (isValidSscc(sscc)) return { kind: 'sscc', sscc, code };
  return { kind: 'item', code };
}

/** What the screen does with a scan. */
export type ScanAction =
  | { kind: 'none' }
  | { kind: 'carton'; carton: FulfilmentCarton }
  | { kind: 'pallet'; pallet: FulfilmentPallet }
  /** Sent to the service as one unit (or case) into the open carton. */
  | { kind: 'pack'; code: string }
  | { kind: 'unknown-sscc'; sscc: string };

type ViewForScan = Pick<FulfilmentView, 'cartons' | 'pallets' | 'lines'>;

/**
 * Decides what a scan does on this order: an SSCC of one of its cartons or pallets selects it;
 * any other code is packed. An SSCC-shaped code that is no unit of the order but is one of its
 * item codes is packed (a GTIN-18 look-alike); otherwise it is refused here, never packed.
 */
export function scanActionOf(raw: string, view: ViewForScan): ScanAction {
  const reading = readScan(raw);
  if (reading.kind === 'empty') return { kind: 'none' };
  if (reading.kind === 'item') return { kind: 'pack', code: reading.code };
  const carton = view.cartons.find((c) => c.sscc === reading.sscc);
  if (carton) return { kind: 'carton', carton };
  const pallet = view.pallets.find((p) => p.sscc === reading.sscc);
  if (pallet) return { kind: 'pallet', pallet };
  const isItem = view.lines.some((line) =>
    [line.sku, line.upc, line.case_barcode].includes(reading.code),
  );
  if (isItem) return { kind: 'pack', code: reading.code };
  return { kind: 'unknown-sscc', sscc: reading.sscc };
}
