import { localDay } from '../../shared/inventory';
import { shipToProblem } from '../../shared/ship-to';
import { documentDate, documentTime } from './document-time';
import { ssccProblem } from './sscc-check';
import { plural } from '../fulfilment';

/**
 * The compliance rules a retailer's routing guide checks an order against, evaluated from the
 * order's facts alone (pure: no database, the time is given). Each rule gives a verdict and the
 * reason in words, which the compliance report prints and a chargeback dispute quotes.
 */

export type Verdict = 'pass' | 'fail' | 'not_applicable';

export const COMPLIANCE_RULES = {
  ship_to_present: 'Ship-to address complete',
  ship_window: 'Shipped within the ship window',
  asn_before_delivery: 'ASN sent before delivery',
  valid_sscc: 'Every carton and pallet has a valid SSCC',
  cartons_on_pallets: 'Carton counts match the pallets',
  bol_present: 'Bill of lading present',
  quantities_match: 'Quantities shipped match those ordered',
} as const;
export type ComplianceRule = keyof typeof COMPLIANCE_RULES;

export interface RuleResult {
  rule: ComplianceRule;
  title: string;
  verdict: Verdict;
  reason: string;
}

export interface ComplianceFacts {
  transportationMethod: string | null;
  /** The order's ship-to contact as stored (null when the order has none). */
  shipTo: Record<string, unknown> | null;
  /** ISO 8601 UTC instants (null when the step has not happened). */
  shippedAt: string | null;
  asnSentAt: string | null;
  scheduledDeliveryAt: string | null;
  /** Calendar dates, YYYY-MM-DD. */
  earliestShipDate: string | null;
  shipByDate: string | null;
  requestedDeliveryDate: string | null;
  items: { sku: string; quantity: number }[];
  pallets: { id: string; sscc: string | null }[];
  cartons: {
    id: string;
    sscc: string | null;
    palletId: string | null;
    skus: { sku: string; quantity: number }[];
  }[];
  bol: { documents: number; number: string | null };
}

/** Lists at most this many offenders in a reason, then says how many more. */
const MAX_LISTED = 5;

function listed(items: string[]): string {
  const shown = items.slice(0, MAX_LISTED).join('; ');
  return items.length > MAX_LISTED ? `${shown}; and ${items.length - MAX_LISTED} more` : shown;
}

const result = (rule: ComplianceRule, verdict: Verdict, reason: string): RuleResult => ({
  rule,
  title: COMPLIANCE_RULES[rule],
  verdict,
  reason,
});

export const isParcel = (method: string | null) => method?.trim().toUpperCase() === 'PARCEL';

/** The install's day of an instant, as the order list judges Late (not the UTC day). */
const dayOf = (iso: string) => localDay(new Date(iso));

function shipWindow(facts: ComplianceFacts, now: Date): RuleResult {
  const { earliestShipDate: earliest, shipByDate: latest } = facts;
  if (!earliest && !latest)
    return result('ship_window', 'not_applicable', 'The order has no ship window');
  const window = `${documentDate(earliest) ?? 'any date'} to ${documentDate(latest) ?? 'any date'}`;
  const shippedAt = facts.shippedAt ?? facts.asnSentAt;
  if (!shippedAt) {
    // The install's day, as the order list judges "Late".
    if (latest && localDay(now) > latest) {
      return result(
        'ship_window',
        'fail',
        `Not shipped, and the ship-by date ${documentDate(latest)} has passed`,
      );
    }
    return result('ship_window', 'not_applicable', `Not shipped yet; the ship window is ${window}`);
  }
  const day = dayOf(shippedAt);
  if (earliest && day < earliest) {
    return result(
      'ship_window',
      'fail',
      `Shipped ${documentDate(day)}, before the earliest ship date ${documentDate(earliest)}`,
    );
  }
  if (latest && day > latest) {
    return result(
      'ship_window',
      'fail',
      `Shipped ${documentDate(day)}, after the ship-by date ${documentDate(latest)}`,
    );
  }
  return result(
    'ship_window',
    'pass',
    `Shipped ${documentDate(day)}, within the ship window ${window}`,
  );
}

function asnBeforeDelivery(facts: ComplianceFacts, now: Date): RuleResult {
  // A delivery date without a time counts from the start of that day (UTC): the ASN must be in
  // before the truck can arrive.
  const delivery = facts.scheduledDeliveryAt
    ? {
        at: facts.scheduledDeliveryAt,
        what: 'scheduled delivery',
        shown: documentTime(facts.scheduledDeliveryAt),
      }
    : facts.requestedDeliveryDate
      ? {
          at: `${facts.requestedDeliveryDate}T00:00:00.000Z`,
          what: 'requested delivery date',
          shown: documentDate(facts.requestedDeliveryDate),
        }
      : null;
  if (!delivery) {
    return result(
      'asn_before_delivery',
      'not_applicable',
      'No scheduled or requested delivery date',
    );
  }
  if (!facts.asnSentAt) {
    return now.getTime() >= Date.parse(delivery.at)
      ? result(
          'asn_before_delivery',
          'fail',
          `The ASN was not sent before the ${delivery.what} ${delivery.shown}`,
        )
      : result(
          'asn_before_delivery',
          'not_applicable',
          `ASN not sent yet; due before the ${delivery.what} ${delivery.shown}`,
        );
  }
  const verdict = Date.parse(facts.asnSentAt) < Date.parse(delivery.at) ? 'pass' : 'fail';
  return result(
    'asn_before_delivery',
    verdict,
    `ASN sent ${documentTime(facts.asnSentAt)}, ${verdict === 'pass' ? 'before' : 'not before'} the ${delivery.what} ${delivery.shown}`,
  );
}

function validSscc(facts: ComplianceFacts): RuleResult {
  if (facts.cartons.length === 0 && facts.pallets.length === 0) {
    return result('valid_sscc', 'fail', 'No cartons or pallets were packed');
  }
  const problems: string[] = [];
  const seen = new Map<string, number>();
  const check = (what: string, index: number, sscc: string | null) => {
    const problem = ssccProblem(sscc);
    if (problem) problems.push(`${what} ${index + 1}: ${problem}`);
    else seen.set(sscc!, (seen.get(sscc!) ?? 0) + 1);
  };
  facts.cartons.forEach((carton, i) => check('carton', i, carton.sscc));
  facts.pallets.forEach((pallet, i) => check('pallet', i, pallet.sscc));
  for (const [sscc, count] of seen) {
    if (count > 1) problems.push(`SSCC ${sscc} is used ${count} times`);
  }
  if (problems.length > 0) return result('valid_sscc', 'fail', listed(problems));
  return result(
    'valid_sscc',
    'pass',
    facts.cartons.length + facts.pallets.length === 1
      ? `${unitsText(facts)} has a valid SSCC`
      : `${unitsText(facts)} have valid, distinct SSCCs`,
  );
}

function cartonsOnPallets(facts: ComplianceFacts): RuleResult {
  if (isParcel(facts.transportationMethod)) {
    return result(
      'cartons_on_pallets',
      'not_applicable',
      'Parcel order: cartons ship without pallets',
    );
  }
  if (facts.cartons.length === 0)
    return result('cartons_on_pallets', 'fail', 'No cartons were packed');
  const palletIds = new Set(facts.pallets.map((p) => p.id));
  const loose = facts.cartons.filter((c) => c.palletId === null || !palletIds.has(c.palletId));
  const perPallet = facts.pallets.map(
    (pallet) => facts.cartons.filter((c) => c.palletId === pallet.id).length,
  );
  const problems: string[] = [];
  if (loose.length > 0)
    problems.push(
      `${loose.length} of ${plural(facts.cartons.length, 'carton')} ${loose.length === 1 ? 'is' : 'are'} on no pallet`,
    );
  perPallet.forEach((count, i) => {
    if (count === 0)
      problems.push(`pallet ${i + 1} (${facts.pallets[i]!.sscc ?? 'no SSCC'}) holds no cartons`);
  });
  if (problems.length > 0) return result('cartons_on_pallets', 'fail', listed(problems));
  return result(
    'cartons_on_pallets',
    'pass',
    `${plural(facts.cartons.length, 'carton')} on ${plural(facts.pallets.length, 'pallet')} (${perPallet.join(' + ')})`,
  );
}

function bolPresent(facts: ComplianceFacts): RuleResult {
  if (isParcel(facts.transportationMethod)) {
    return result('bol_present', 'not_applicable', 'Parcel order: no bill of lading needed');
  }
  const number = facts.bol.number ? `, number ${facts.bol.number}` : '';
  if (facts.bol.documents > 0) {
    const versions = facts.bol.documents === 1 ? '1 version' : `${facts.bol.documents} versions`;
    return result('bol_present', 'pass', `Bill of lading uploaded (${versions}${number})`);
  }
  return result(
    'bol_present',
    'fail',
    facts.bol.number
      ? `Bill of lading number ${facts.bol.number} is recorded but no BOL document was uploaded`
      : 'No bill of lading was uploaded',
  );
}

function quantitiesMatch(facts: ComplianceFacts): RuleResult {
  const ordered = new Map<string, number>();
  for (const item of facts.items)
    ordered.set(item.sku, (ordered.get(item.sku) ?? 0) + item.quantity);
  const packed = new Map<string, number>();
  for (const carton of facts.cartons) {
    for (const line of carton.skus)
      packed.set(line.sku, (packed.get(line.sku) ?? 0) + line.quantity);
  }
  const problems: string[] = [];
  for (const [sku, quantity] of ordered) {
    const shipped = packed.get(sku) ?? 0;
    if (shipped !== quantity) problems.push(`${sku}: ordered ${quantity}, shipped ${shipped}`);
  }
  for (const [sku, quantity] of packed) {
    if (!ordered.has(sku)) problems.push(`${sku}: not ordered, shipped ${quantity}`);
  }
  if (problems.length > 0) return result('quantities_match', 'fail', listed(problems));
  const units = [...ordered.values()].reduce((sum, n) => sum + n, 0);
  return result(
    'quantities_match',
    'pass',
    `${ordered.size === 1 ? '' : 'All '}${plural(ordered.size, 'SKU')} shipped as ordered (${plural(units, 'unit')})`,
  );
}

const unitsText = (facts: ComplianceFacts) =>
  [
    facts.cartons.length > 0 ? plural(facts.cartons.length, 'carton') : null,
    facts.pallets.length > 0 ? plural(facts.pallets.length, 'pallet') : null,
  ]
    .filter(Boolean)
    .join(' and ');

/** A carrier cannot deliver, and the retailer charges back, without a complete ship-to. */
function shipToPresent(facts: ComplianceFacts): RuleResult {
  const problem = shipToProblem(facts.shipTo);
  if (problem) {
    return result('ship_to_present', 'fail', `${problem[0]!.toUpperCase()}${problem.slice(1)}`);
  }
  const zip = facts.shipTo?.zip;
  return result('ship_to_present', 'pass', `Ship-to address complete (postal code ${String(zip)})`);
}

/** Every rule's verdict, in the report's order. */
export function evaluateCompliance(facts: ComplianceFacts, now: Date): RuleResult[] {
  return [
    shipToPresent(facts),
    shipWindow(facts, now),
    asnBeforeDelivery(facts, now),
    validSscc(facts),
    cartonsOnPallets(facts),
    bolPresent(facts),
    quantitiesMatch(facts),
  ];
}

/** The order passes when no rule fails (rules that do not apply do not count against it). */
export const overallVerdict = (results: readonly RuleResult[]): 'pass' | 'fail' =>
  results.some((r) => r.verdict === 'fail') ? 'fail' : 'pass';
