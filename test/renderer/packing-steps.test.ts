import { describe, expect, it } from 'vitest';
import { ApiError } from '../../src/renderer/src/api/ApiError';
import {
  StationRefusal,
  clerkErrorText,
  errorDetailOf,
  clerkMissing,
  stepButtons,
} from '../../src/renderer/src/screens/packing/stepGate';

const byStep = (status: Parameters<typeof stepButtons>[0]['status'], missing: string[] = []) =>
  Object.fromEntries(stepButtons({ status, missing }).map((button) => [button.step, button]));

describe('missing-step wording for clerks', () => {
  it('rewords the service texts that name API flags or another screen', () => {
    expect(
      clerkMissing('12 ordered units not packed (complete with allow_short to ship short)'),
    ).toBe('12 ordered units not packed yet');
    expect(
      clerkMissing('1 ordered unit not packed (complete with allow_short to ship short)'),
    ).toBe('1 ordered unit not packed yet');
    expect(clerkMissing('no bill of lading')).toBe(
      'no bill of lading (upload it on the order page)',
    );
  });

  it('keeps the other texts as the service wrote them', () => {
    for (const text of [
      '2 cartons not on a pallet',
      '1 carton still open',
      'nothing is packed yet',
      '1 pallet without cartons',
      'no cartons',
    ]) {
      expect(clerkMissing(text)).toBe(text);
    }
  });
});

describe('step buttons', () => {
  it('an Open order: nothing can be completed until an item is scanned', () => {
    const steps = byStep('Open');
    expect(steps.complete_packing).toMatchObject({
      enabled: false,
      done: false,
      reasons: ['nothing is packed yet: scan an item'],
    });
    expect(steps.stage).toMatchObject({ enabled: false, reasons: ['Complete packing first'] });
    expect(steps.load).toMatchObject({ enabled: false, reasons: ['Stage first'] });
    expect(steps.ship).toMatchObject({ enabled: false, reasons: ['Load first'] });
  });

  it('the next step is enabled when nothing is missing', () => {
    const steps = byStep('Packed');
    expect(steps.complete_packing).toMatchObject({ done: true, enabled: false, reasons: [] });
    expect(steps.stage).toMatchObject({ done: false, enabled: true, reasons: [] });
    expect(steps.load).toMatchObject({ enabled: false, reasons: ['Stage first'] });
  });

  it('the next step is disabled with what the service says is missing', () => {
    const steps = byStep('Packed', ['2 cartons not on a pallet', '1 pallet without cartons']);
    expect(steps.stage).toMatchObject({
      enabled: false,
      reasons: ['2 cartons not on a pallet', '1 pallet without cartons'],
    });
    const loaded = byStep('Loaded', ['no bill of lading']);
    expect(loaded.ship).toMatchObject({
      enabled: false,
      reasons: ['no bill of lading (upload it on the order page)'],
    });
    expect(loaded.load).toMatchObject({ done: true });
  });

  it('offers Complete short only when short units alone stop packing', () => {
    const short = '3 ordered units not packed (complete with allow_short to ship short)';
    expect(byStep('Picking', [short]).complete_packing).toMatchObject({
      enabled: false,
      shortOnly: true,
      reasons: ['3 ordered units not packed yet'],
    });
    expect(byStep('Picking', ['1 carton still open', short]).complete_packing).toMatchObject({
      shortOnly: false,
    });
    expect(byStep('Picking').complete_packing).toMatchObject({ enabled: true, shortOnly: false });
  });

  it('a shipped order has every step done; a cancelled one none possible', () => {
    expect(stepButtons({ status: 'Shipped', missing: [] }).every((b) => b.done)).toBe(true);
    for (const button of stepButtons({ status: 'Cancelled', missing: [] })) {
      expect(button).toMatchObject({
        done: false,
        enabled: false,
        reasons: ['the order is cancelled'],
      });
    }
  });
});

describe('refusals shown next to the scan box', () => {
  const conflict = (message: string, extra: Record<string, unknown> = {}) =>
    new ApiError(409, 'INVALID_REQUEST', message, {
      message,
      error: { code: 'INVALID_REQUEST', ...extra },
    });

  it('an over-pack says so plainly, without the API flag', () => {
    const message =
      'Cannot pack more than ordered: SUM-BAG-20F would be 17 of 16 ordered. Only the ordered quantity can be packed.';
    expect(
      clerkErrorText(conflict(message, { missing: ['SUM-BAG-20F would be 17 of 16 ordered'] })),
    ).toBe('Over-pack refused: SUM-BAG-20F would be 17 of 16 ordered.');
    expect(clerkErrorText(conflict(message))).toBe(
      'Over-pack refused: SUM-BAG-20F would be 17 of 16 ordered.',
    );
  });

  it('keeps the service wording behind "Details": the API flag, the terse status form', () => {
    const overPack = conflict('Cannot pack more than ordered: X would be 3 of 2 ordered.', {
      details: 'allow_over_ship: true packs more than ordered',
    });
    expect(errorDetailOf(overPack)).toBe('allow_over_ship: true packs more than ordered');
    expect(errorDetailOf(conflict('Packing is complete for this order'))).toBeNull();
    expect(errorDetailOf(new Error('boom'))).toBeNull();
  });

  it('a brand without a GS1 prefix points to Settings', () => {
    const message =
      'Brand Lumen Home has no GS1 company prefix; an admin of the brand sets it (PUT /api/v1/brands/x/gs1-prefix) before cartons and pallets get SSCCs';
    expect(clerkErrorText(conflict(message))).toBe(
      'Brand Lumen Home has no GS1 company prefix yet: an admin sets it on the Settings screen.',
    );
  });

  it('a refused step lists what is missing in clerk words', () => {
    const error = conflict(
      'Cannot complete packing: 1 carton still open; 3 ordered units not packed (complete with allow_short to ship short)',
      {
        missing: [
          '1 carton still open',
          '3 ordered units not packed (complete with allow_short to ship short)',
        ],
      },
    );
    expect(clerkErrorText(error)).toBe(
      'Cannot complete packing: 1 carton still open; 3 ordered units not packed yet.',
    );
  });

  it('passes other service messages, network failures and the screen’s own refusals', () => {
    expect(
      clerkErrorText(
        new ApiError(400, 'INVALID_REQUEST', 'XYZ is not a SKU, UPC or case barcode of this order'),
      ),
    ).toBe('XYZ is not a SKU, UPC or case barcode of this order');
    expect(clerkErrorText(new ApiError(0, 'NETWORK_ERROR', 'Could not reach the service.'))).toBe(
      'Could not reach the service. Check that it is running, then scan again.',
    );
    expect(
      clerkErrorText(new StationRefusal('No carton is open: scan an item to start one.')),
    ).toBe('No carton is open: scan an item to start one.');
    expect(clerkErrorText(new TypeError('boom'))).toBe('Something went wrong. Please try again.');
  });
});
