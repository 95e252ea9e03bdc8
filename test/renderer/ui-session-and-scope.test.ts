import { describe, expect, it } from 'vitest';
import {
  SESSION_STORAGE_KEY,
  restoreSession,
  storeSession,
  type Session,
} from '../../src/renderer/src/auth/session';
import { recallScope, rememberScope } from '../../src/renderer/src/routing/lastScope';
import {
  discardQuestion,
  unsentRows,
  type InputState,
} from '../../src/renderer/src/screens/inventory/InventoryDraft';
import type { ParsedSheet } from '../../src/renderer/src/screens/inventory/sheetRows';

/** A Storage backed by a Map, like the browser's. */
function memoryStorage(): Storage {
  const map = new Map<string, string>();
  return {
    get length() {
      return map.size;
    },
    clear: () => map.clear(),
    getItem: (key) => map.get(key) ?? null,
    key: (index) => [...map.keys()][index] ?? null,
    removeItem: (key) => void map.delete(key),
    setItem: (key, value) => void map.set(key, String(value)),
  };
}

const NOW = Date.parse('2026-11-22T10:00:00Z');
const session: Session = {
  token: 'header.payload.sig',
  email: 'a@example.com',
  expiresAt: NOW + 60_000,
};

describe('the session kept for a reload', () => {
  it('comes back while it is valid', () => {
    const storage = memoryStorage();
    storeSession(storage, session);
    expect(restoreSession(storage, NOW)).toEqual(session);
  });

  it('is dropped once expired, and forgotten', () => {
    const storage = memoryStorage();
    storeSession(storage, session);
    expect(restoreSession(storage, session.expiresAt)).toBeNull();
    expect(storage.getItem(SESSION_STORAGE_KEY)).toBeNull();
  });

  it('is dropped when malformed or tampered into another shape', () => {
    const storage = memoryStorage();
    for (const text of ['not json', '{}', '{"token":"","email":"x","expiresAt":9e15}', 'null']) {
      storage.setItem(SESSION_STORAGE_KEY, text);
      expect(restoreSession(storage, NOW), text).toBeNull();
    }
  });

  it('is removed on sign-out, and nothing is kept without storage', () => {
    const storage = memoryStorage();
    storeSession(storage, session);
    storeSession(storage, null);
    expect(restoreSession(storage, NOW)).toBeNull();
    expect(restoreSession(undefined, NOW)).toBeNull();
    expect(() => storeSession(undefined, session)).not.toThrow();
  });

  it('survives a storage that refuses writes', () => {
    const storage = memoryStorage();
    storage.setItem = () => {
      throw new Error('QuotaExceededError');
    };
    expect(() => storeSession(storage, session)).not.toThrow();
  });
});

describe('the last facility and brand', () => {
  const facility = '0f000000-0000-4000-8000-000000000001';
  const brand = '0b000000-0000-4000-8000-000000000001';

  it('is remembered per user (email case does not matter)', () => {
    const storage = memoryStorage();
    rememberScope(storage, 'Clerk@Example.com', { facility, brand });
    expect(recallScope(storage, 'clerk@example.com')).toEqual({ facility, brand });
    expect(recallScope(storage, 'other@example.com')).toBeNull();
  });

  it('may hold a facility alone, and is cleared with null', () => {
    const storage = memoryStorage();
    rememberScope(storage, 'a@example.com', { facility });
    expect(recallScope(storage, 'a@example.com')).toEqual({ facility });
    rememberScope(storage, 'a@example.com', null);
    expect(recallScope(storage, 'a@example.com')).toBeNull();
  });

  it('ignores what it did not write', () => {
    const storage = memoryStorage();
    for (const text of ['{', '[]', '{"facility":5}', '{"facility":""}', '"x"']) {
      storage.setItem('fulfillment.inventory-scope:a@example.com', text);
      expect(recallScope(storage, 'a@example.com'), text).toBeNull();
    }
  });
});

describe('unsent rows', () => {
  const sheet = { items: [{}, {}, {}] } as unknown as ParsedSheet;
  const ready: InputState = { status: 'ready', sheet };

  it('counts loaded rows until they are sent', () => {
    expect(unsentRows({ status: 'empty' }, null)).toBe(0);
    expect(unsentRows({ status: 'reading', source: 'f.csv' }, null)).toBe(0);
    expect(unsentRows(ready, null)).toBe(3);
    expect(unsentRows(ready, sheet)).toBe(0);
    // Other rows (a new file, an edit) are unsent again.
    const edited = { items: [{}] } as unknown as ParsedSheet;
    expect(unsentRows({ status: 'ready', sheet: edited }, sheet)).toBe(1);
  });

  it('asks in plain words', () => {
    expect(discardQuestion(1, 'Sign out')).toBe(
      '1 loaded row has not been sent. Sign out and discard it?',
    );
    expect(discardQuestion(12, 'Sign out')).toBe(
      '12 loaded rows have not been sent. Sign out and discard them?',
    );
  });
});
