import { describe, expect, it } from 'vitest';
import {
  conflictStatusOf,
  searchForStatus,
  syncSearchSchema,
} from '../../src/renderer/src/screens/sync/syncSearch';

describe('the Sync screen URL state', () => {
  it('shows open conflicts by default, from page 1', () => {
    const search = syncSearchSchema.parse({});
    expect(search).toEqual({ status: undefined, page: undefined });
    expect(conflictStatusOf(search)).toBe('open');
  });

  it('keeps a known status and a page beyond the first', () => {
    const search = syncSearchSchema.parse({ status: 'resolved', page: 3 });
    expect(conflictStatusOf(search)).toBe('resolved');
    expect(search.page).toBe(3);
  });

  it('drops what does not fit rather than failing', () => {
    expect(syncSearchSchema.parse({ status: 'closed', page: 0 })).toEqual({
      status: undefined,
      page: undefined,
    });
    expect(syncSearchSchema.parse({ page: 'two' }).page).toBeUndefined();
  });

  it('starts a status change on the first page, open being the absent status', () => {
    expect(searchForStatus('open')).toEqual({ status: undefined, page: undefined });
    expect(searchForStatus('resolved')).toEqual({ status: 'resolved', page: undefined });
  });
});
