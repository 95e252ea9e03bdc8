import { describe, expect, it } from 'vitest';
import type { SyncStatus } from '../../src/shared/sync';
import {
  EMPTY_VALUE,
  badgeSentence,
  badgeTone,
  conflictName,
  fieldLabels,
  formatConflictValue,
  formatSyncClock,
  isRefusedCreate,
  latestSync,
  mutationLabel,
  recreatedMessage,
  resolutionLabel,
  resolvedMessage,
  roleLabel,
} from '../../src/renderer/src/screens/sync/syncFormat';

const UTC = { locale: 'en-GB', timeZone: 'UTC' };
const NOW = new Date('2026-11-24T15:00:00Z');

const workstation = (patch: Partial<SyncStatus> = {}): SyncStatus => ({
  role: 'workstation',
  online: true,
  pending_mutations: 0,
  last_push_at: null,
  last_pull_at: null,
  conflicts: 0,
  last_error: null,
  ...patch,
});

describe('the sync badge sentence', () => {
  it('says nothing on a standalone install', () => {
    expect(badgeSentence(workstation({ role: 'standalone', conflicts: 3 }), NOW, UTC)).toBeNull();
  });

  it('names the central service on the central role', () => {
    expect(badgeSentence(workstation({ role: 'central', online: false }), NOW, UTC)).toBe(
      'Central service',
    );
  });

  it('reads online, waiting count and the newer of the last push and pull', () => {
    const status = workstation({
      pending_mutations: 0,
      last_push_at: '2026-11-24T09:12:40Z',
      last_pull_at: '2026-11-24T09:05:00Z',
    });
    expect(badgeSentence(status, NOW, UTC)).toBe('Online · 0 waiting · synced 09:12');
  });

  it('leaves the sync time out before the first exchange', () => {
    expect(badgeSentence(workstation({ pending_mutations: 4 }), NOW, UTC)).toBe(
      'Online · 4 waiting',
    );
  });

  it('reads offline with the waiting count and no sync time', () => {
    const status = workstation({
      online: false,
      pending_mutations: 3,
      last_push_at: '2026-11-24T09:12:00Z',
    });
    expect(badgeSentence(status, NOW, UTC)).toBe('Offline · 3 waiting');
  });

  it('adds the conflicts, one or many', () => {
    expect(
      badgeSentence(workstation({ online: false, pending_mutations: 2, conflicts: 1 }), NOW, UTC),
    ).toBe('Offline · 2 waiting · 1 conflict');
    expect(
      badgeSentence(workstation({ last_pull_at: '2026-11-24T09:12:00Z', conflicts: 2 }), NOW, UTC),
    ).toBe('Online · 0 waiting · synced 09:12 · 2 conflicts');
  });

  it('gives a sync time from another day its date', () => {
    const status = workstation({ last_pull_at: '2026-11-20T09:12:00Z' });
    expect(badgeSentence(status, NOW, UTC)).toBe('Online · 0 waiting · synced 20 Nov 2026, 09:12');
  });

  it('decides "today" in the workstation time zone', () => {
    // 23:30 UTC on the 23rd is already the 24th in Berlin.
    expect(
      formatSyncClock('2026-11-23T23:30:00Z', NOW, { locale: 'en-GB', timeZone: 'Europe/Berlin' }),
    ).toBe('00:30');
  });

  it('looks calm, offline or alarmed', () => {
    expect(badgeTone(workstation())).toBe('ok');
    expect(badgeTone(workstation({ online: false }))).toBe('offline');
    expect(badgeTone(workstation({ online: false, conflicts: 1 }))).toBe('conflicts');
    expect(badgeTone(workstation({ role: 'central', online: false }))).toBe('ok');
  });
});

describe('the last sync', () => {
  it('is the newer readable instant', () => {
    expect(latestSync('2026-11-24T09:00:00Z', '2026-11-24T10:00:00Z')).toBe('2026-11-24T10:00:00Z');
    expect(latestSync('2026-11-24T11:00:00Z', '2026-11-24T10:00:00Z')).toBe('2026-11-24T11:00:00Z');
    expect(latestSync(null, '2026-11-24T10:00:00Z')).toBe('2026-11-24T10:00:00Z');
    expect(latestSync('soon', null)).toBeNull();
    expect(latestSync(null, null)).toBeNull();
  });
});

describe('conflict values', () => {
  it('shows text as it is', () => {
    expect(formatConflictValue('Shipped')).toBe('Shipped');
    expect(formatConflictValue('  two  spaces ')).toBe('  two  spaces ');
  });

  it('shows nothing as (empty)', () => {
    expect(EMPTY_VALUE).toBe('(empty)');
    expect(formatConflictValue(null)).toBe('(empty)');
    expect(formatConflictValue(undefined)).toBe('(empty)');
    expect(formatConflictValue('')).toBe('(empty)');
  });

  it('shows numbers and booleans as written', () => {
    expect(formatConflictValue(12)).toBe('12');
    expect(formatConflictValue(0)).toBe('0');
    expect(formatConflictValue(false)).toBe('false');
  });

  it('shows objects and lists as compact JSON', () => {
    expect(formatConflictValue({ sku: 'SUM-TENT-2P', quantity: 4 })).toBe(
      '{"sku":"SUM-TENT-2P","quantity":4}',
    );
    expect(formatConflictValue([1, 'a', null])).toBe('[1,"a",null]');
  });
});

describe('conflict rows', () => {
  it('lists bare field names from one table and qualified ones from several', () => {
    expect(
      fieldLabels([
        { table: 'orders', field: 'po_number', yours: 'a', central: 'b' },
        { table: 'orders', field: 'status', yours: 'a', central: 'b' },
      ]),
    ).toEqual(['po_number', 'status']);
    expect(
      fieldLabels([
        { table: 'orders', field: 'status', yours: 'a', central: 'b' },
        { table: 'order_items', field: 'quantity', yours: 1, central: 2 },
      ]),
    ).toEqual(['orders.status', 'order_items.quantity']);
  });

  it('names mutations in words', () => {
    expect(mutationLabel('ORDER_UPDATE')).toBe('Order update');
    expect(mutationLabel('orders.update')).toBe('Orders update');
    expect(mutationLabel('order.change-facility')).toBe('Order change facility');
    expect(mutationLabel('')).toBe('');
  });

  it("names a row by its order's picksheet code, else by its change number", () => {
    expect(conflictName({ picksheet_code: 'PS-1001', seq: 7 })).toBe('PS-1001');
    expect(conflictName({ picksheet_code: null, seq: 7 })).toBe('change 7');
  });

  it('says what happened once a conflict is settled', () => {
    expect(resolvedMessage({ picksheet_code: 'PS-1001', seq: 7 }, 'keep_central')).toBe(
      "PS-1001: kept the central service's values.",
    );
    expect(resolvedMessage({ picksheet_code: null, seq: 7 }, 'apply_mine')).toBe(
      'change 7: your values are applied again as a new change, which the central service checks when it gets it. If the order has changed meanwhile (shipped, for example), it may refuse them again.',
    );
  });

  it('names each role in words', () => {
    expect(roleLabel('workstation')).toBe('Workstation');
    expect(roleLabel('central')).toBe('Central service');
    expect(roleLabel('standalone')).toBe('Standalone');
  });

  it('says how a resolved conflict ended', () => {
    expect(resolutionLabel({ resolution: 'keep_central' })).toBe("Kept central's");
    expect(resolutionLabel({ resolution: 'apply_mine' })).toBe('Applied mine');
    expect(resolutionLabel({ resolution: 'created_new' })).toBe(
      'Created with a new picksheet code',
    );
    expect(resolutionLabel({ resolution: null })).toBe('Resolved');
  });

  it('says a refused new order was created again, and never links to the order that is nowhere', () => {
    expect(recreatedMessage({ picksheet_code: 'PS-9', seq: 3 }, 'PS-9B')).toBe(
      'PS-9: created again as PS-9B, with the values it held. The central service checks the new code when it gets it.',
    );
    expect(
      isRefusedCreate({ offers: ['keep_central', 'create_with_new_picksheet'], resolution: null }),
    ).toBe(true);
    expect(isRefusedCreate({ offers: [], resolution: 'created_new' })).toBe(true);
    expect(isRefusedCreate({ offers: ['keep_central', 'apply_mine'], resolution: null })).toBe(
      false,
    );
  });
});
