import { describe, expect, it } from 'vitest';
import {
  evaluateCompliance,
  overallVerdict,
  type ComplianceFacts,
  type ComplianceRule,
  type RuleResult,
} from '../../src/server/documents/compliance-rules';
import { sscc } from './fixtures';

const NOW = new Date('2026-01-20T12:00:00.000Z');

/** A freight order that passes every rule; each test spoils one fact. */
function passing(overrides: Partial<ComplianceFacts> = {}): ComplianceFacts {
  return {
    transportationMethod: 'FREIGHT',
    shipTo: { name: 'DC 12', address_line1: '1 Dock Rd', city: 'Reno', zip: '89502' },
    shippedAt: '2026-01-07T16:00:00.000Z',
    asnSentAt: '2026-01-07T16:05:00.000Z',
    scheduledDeliveryAt: null,
    earliestShipDate: '2026-01-05',
    shipByDate: '2026-01-09',
    requestedDeliveryDate: '2026-01-12',
    items: [
      { sku: 'SKU-A', quantity: 6 },
      { sku: 'SKU-B', quantity: 4 },
    ],
    pallets: [
      { id: 'p1', sscc: sscc(101, 1) },
      { id: 'p2', sscc: sscc(102, 1) },
    ],
    cartons: [
      {
        id: 'c1',
        sscc: sscc(1),
        palletId: 'p1',
        skus: [
          { sku: 'SKU-A', quantity: 4 },
          { sku: 'SKU-B', quantity: 2 },
        ],
      },
      { id: 'c2', sscc: sscc(2), palletId: 'p1', skus: [{ sku: 'SKU-A', quantity: 2 }] },
      { id: 'c3', sscc: sscc(3), palletId: 'p2', skus: [{ sku: 'SKU-B', quantity: 2 }] },
    ],
    bol: { documents: 1, number: 'BOL-1' },
    ...overrides,
  };
}

const rule = (results: RuleResult[], name: ComplianceRule) => results.find((r) => r.rule === name)!;
const verdictOf = (facts: ComplianceFacts, name: ComplianceRule, now = NOW) =>
  rule(evaluateCompliance(facts, now), name);

describe('compliance rules', () => {
  it('an order built to pass passes every rule, with the reasons', () => {
    const results = evaluateCompliance(passing(), NOW);
    expect(results.map((r) => [r.rule, r.verdict, r.reason])).toEqual([
      ['ship_to_present', 'pass', 'Ship-to address complete (postal code 89502)'],
      [
        'ship_window',
        'pass',
        'Shipped 7 Jan 2026, within the ship window 5 Jan 2026 to 9 Jan 2026',
      ],
      [
        'asn_before_delivery',
        'pass',
        'ASN sent 7 Jan 2026, 16:05 UTC, before the requested delivery date 12 Jan 2026',
      ],
      ['valid_sscc', 'pass', '3 cartons and 2 pallets have valid, distinct SSCCs'],
      ['cartons_on_pallets', 'pass', '3 cartons on 2 pallets (2 + 1)'],
      ['bol_present', 'pass', 'Bill of lading uploaded (1 version, number BOL-1)'],
      ['quantities_match', 'pass', 'All 2 SKUs shipped as ordered (10 units)'],
    ]);
    expect(overallVerdict(results)).toBe('pass');
  });

  describe('ship-to address', () => {
    it('fails without a ship-to, or with one lacking street, city or postal code', () => {
      expect(verdictOf(passing({ shipTo: null }), 'ship_to_present')).toMatchObject({
        verdict: 'fail',
        reason: 'No ship-to address',
      });
      expect(verdictOf(passing({ shipTo: { name: 'DC 12' } }), 'ship_to_present')).toMatchObject({
        verdict: 'fail',
        reason: 'No ship-to address',
      });
      expect(
        verdictOf(passing({ shipTo: { address_line1: '1 Dock Rd', zip: ' ' } }), 'ship_to_present'),
      ).toMatchObject({ verdict: 'fail', reason: 'Ship-to address has no city or postal code' });
      const results = evaluateCompliance(passing({ shipTo: null }), NOW);
      expect(overallVerdict(results)).toBe('fail');
    });
  });

  it('counts in words: "1 pallet", "1 carton", "1 SKU"', () => {
    const facts = passing({
      items: [{ sku: 'SKU-A', quantity: 1 }],
      pallets: [{ id: 'p1', sscc: sscc(101, 1) }],
      cartons: [{ id: 'c1', sscc: sscc(1), palletId: 'p1', skus: [{ sku: 'SKU-A', quantity: 1 }] }],
    });
    const reasons = evaluateCompliance(facts, NOW).map((r) => r.reason);
    expect(reasons).toContain('1 carton on 1 pallet (1)');
    expect(reasons).toContain('1 carton and 1 pallet have valid, distinct SSCCs');
    expect(reasons).toContain('1 SKU shipped as ordered (1 unit)');
  });

  describe('ship window', () => {
    it('judges by the install’s day, as the order list does, not the UTC day', () => {
      // 19:00 in Chicago on the ship-by day is already the next day in UTC.
      const zone = process.env.TZ;
      process.env.TZ = 'America/Chicago';
      try {
        expect(
          verdictOf(passing({ shippedAt: '2026-01-10T01:00:00.000Z' }), 'ship_window'),
        ).toMatchObject({ verdict: 'pass', reason: expect.stringMatching(/^Shipped 9 Jan 2026/) });
      } finally {
        process.env.TZ = zone;
      }
    });

    it('fails before the earliest and after the latest ship date', () => {
      expect(
        verdictOf(passing({ shippedAt: '2026-01-04T23:59:00.000Z' }), 'ship_window'),
      ).toMatchObject({
        verdict: 'fail',
        reason: 'Shipped 4 Jan 2026, before the earliest ship date 5 Jan 2026',
      });
      expect(
        verdictOf(passing({ shippedAt: '2026-01-10T00:00:00.000Z' }), 'ship_window'),
      ).toMatchObject({
        verdict: 'fail',
        reason: 'Shipped 10 Jan 2026, after the ship-by date 9 Jan 2026',
      });
    });

    it('the last day of the window counts; the ASN time stands in when shipped_at is missing', () => {
      expect(
        verdictOf(passing({ shippedAt: '2026-01-09T23:59:59.000Z' }), 'ship_window').verdict,
      ).toBe('pass');
      expect(
        verdictOf(
          passing({ shippedAt: null, asnSentAt: '2026-01-11T08:00:00.000Z' }),
          'ship_window',
        ),
      ).toMatchObject({
        verdict: 'fail',
        reason: 'Shipped 11 Jan 2026, after the ship-by date 9 Jan 2026',
      });
    });

    it('not shipped: fails once the window closed, else does not apply yet; no window: does not apply', () => {
      const unshipped = passing({ shippedAt: null, asnSentAt: null });
      expect(verdictOf(unshipped, 'ship_window')).toMatchObject({
        verdict: 'fail',
        reason: 'Not shipped, and the ship-by date 9 Jan 2026 has passed',
      });
      expect(verdictOf(unshipped, 'ship_window', new Date('2026-01-08T00:00:00Z'))).toMatchObject({
        verdict: 'not_applicable',
        reason: 'Not shipped yet; the ship window is 5 Jan 2026 to 9 Jan 2026',
      });
      expect(
        verdictOf(passing({ earliestShipDate: null, shipByDate: null }), 'ship_window'),
      ).toMatchObject({ verdict: 'not_applicable', reason: 'The order has no ship window' });
    });
  });

  describe('ASN before delivery', () => {
    it('fails when the ASN was not sent by the delivery, or sent at or after it', () => {
      expect(verdictOf(passing({ asnSentAt: null }), 'asn_before_delivery')).toMatchObject({
        verdict: 'fail',
        reason: 'The ASN was not sent before the requested delivery date 12 Jan 2026',
      });
      // Not sent yet, and the delivery is still ahead: not a failure yet.
      expect(
        verdictOf(
          passing({ asnSentAt: null }),
          'asn_before_delivery',
          new Date('2026-01-11T23:00:00Z'),
        ),
      ).toMatchObject({
        verdict: 'not_applicable',
        reason: 'ASN not sent yet; due before the requested delivery date 12 Jan 2026',
      });
      expect(
        verdictOf(passing({ asnSentAt: '2026-01-12T00:00:00.000Z' }), 'asn_before_delivery'),
      ).toMatchObject({
        verdict: 'fail',
        reason:
          'ASN sent 12 Jan 2026, 00:00 UTC, not before the requested delivery date 12 Jan 2026',
      });
    });

    it('the scheduled delivery (from the BOL) wins over the requested date', () => {
      const facts = passing({
        scheduledDeliveryAt: '2026-01-07T15:00:00.000Z',
        requestedDeliveryDate: '2026-01-12',
      });
      expect(verdictOf(facts, 'asn_before_delivery')).toMatchObject({
        verdict: 'fail',
        reason:
          'ASN sent 7 Jan 2026, 16:05 UTC, not before the scheduled delivery 7 Jan 2026, 15:00 UTC',
      });
    });

    it('does not apply without a delivery date', () => {
      expect(
        verdictOf(
          passing({ requestedDeliveryDate: null, scheduledDeliveryAt: null }),
          'asn_before_delivery',
        ),
      ).toMatchObject({
        verdict: 'not_applicable',
        reason: 'No scheduled or requested delivery date',
      });
    });
  });

  describe('SSCCs', () => {
    it('fails on a missing, short, wrong-check-digit or repeated SSCC, naming each', () => {
      const facts = passing();
      facts.cartons[0]!.sscc = null;
      facts.cartons[1]!.sscc = '006141410000000025';
      facts.pallets[0]!.sscc = '123';
      facts.pallets[1]!.sscc = facts.cartons[2]!.sscc;
      expect(verdictOf(facts, 'valid_sscc')).toMatchObject({
        verdict: 'fail',
        reason:
          'carton 1: no SSCC; carton 2: SSCC 006141410000000025 has check digit 5, expected 9; ' +
          `pallet 1: SSCC 123 is not 18 digits; SSCC ${sscc(3)} is used 2 times`,
      });
    });

    it('fails when nothing was packed; lists at most 5 problems', () => {
      expect(verdictOf(passing({ cartons: [], pallets: [] }), 'valid_sscc')).toMatchObject({
        verdict: 'fail',
        reason: 'No cartons or pallets were packed',
      });
      const many = passing({
        cartons: Array.from({ length: 8 }, (_, i) => ({
          id: `c${i}`,
          sscc: null,
          palletId: 'p1',
          skus: [],
        })),
      });
      expect(verdictOf(many, 'valid_sscc').reason).toMatch(/carton 5: no SSCC; and 3 more$/);
    });
  });

  describe('cartons on pallets', () => {
    it('freight: a carton on no pallet, or an empty pallet, fails', () => {
      const facts = passing();
      facts.cartons[2]!.palletId = null;
      expect(verdictOf(facts, 'cartons_on_pallets')).toMatchObject({
        verdict: 'fail',
        reason: `1 of 3 cartons is on no pallet; pallet 2 (${sscc(102, 1)}) holds no cartons`,
      });
      expect(verdictOf(passing({ cartons: [] }), 'cartons_on_pallets')).toMatchObject({
        verdict: 'fail',
        reason: 'No cartons were packed',
      });
    });

    it('parcel orders ship cartons without pallets', () => {
      const facts = passing({ transportationMethod: 'parcel', pallets: [] });
      for (const carton of facts.cartons) carton.palletId = null;
      expect(verdictOf(facts, 'cartons_on_pallets').verdict).toBe('not_applicable');
    });
  });

  describe('bill of lading', () => {
    it('freight fails without an uploaded BOL, also when only its number is recorded', () => {
      expect(
        verdictOf(passing({ bol: { documents: 0, number: null } }), 'bol_present'),
      ).toMatchObject({
        verdict: 'fail',
        reason: 'No bill of lading was uploaded',
      });
      expect(
        verdictOf(passing({ bol: { documents: 0, number: 'BOL-9' } }), 'bol_present'),
      ).toMatchObject({
        verdict: 'fail',
        reason: 'Bill of lading number BOL-9 is recorded but no BOL document was uploaded',
      });
      expect(
        verdictOf(passing({ bol: { documents: 2, number: null } }), 'bol_present').reason,
      ).toBe('Bill of lading uploaded (2 versions)');
    });

    it('parcel orders need none; a missing method counts as freight', () => {
      const parcel = passing({
        transportationMethod: 'PARCEL',
        bol: { documents: 0, number: null },
      });
      expect(verdictOf(parcel, 'bol_present')).toMatchObject({
        verdict: 'not_applicable',
        reason: 'Parcel order: no bill of lading needed',
      });
      const unknown = passing({ transportationMethod: null, bol: { documents: 0, number: null } });
      expect(verdictOf(unknown, 'bol_present').verdict).toBe('fail');
    });
  });

  describe('quantities', () => {
    it('fails per SKU short, over, or not ordered; repeated order lines add up', () => {
      const facts = passing({
        items: [
          { sku: 'SKU-A', quantity: 4 },
          { sku: 'SKU-A', quantity: 3 },
          { sku: 'SKU-B', quantity: 3 },
          { sku: 'SKU-C', quantity: 1 },
        ],
      });
      facts.cartons[2]!.skus.push({ sku: 'SKU-X', quantity: 1 });
      expect(verdictOf(facts, 'quantities_match')).toMatchObject({
        verdict: 'fail',
        reason:
          'SKU-A: ordered 7, shipped 6; SKU-B: ordered 3, shipped 4; SKU-C: ordered 1, shipped 0; SKU-X: not ordered, shipped 1',
      });
    });
  });

  it('the overall verdict fails when any rule fails; rules that do not apply do not count', () => {
    const parcel = passing({ transportationMethod: 'PARCEL', bol: { documents: 0, number: null } });
    expect(overallVerdict(evaluateCompliance(parcel, NOW))).toBe('pass');
    expect(overallVerdict(evaluateCompliance(passing({ asnSentAt: null }), NOW))).toBe('fail');
  });
});
