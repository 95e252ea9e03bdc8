import { describe, expect, it } from 'vitest';
import demoBilling from '../../resources/demo-billing.json';
import demoClaims from '../../resources/demo-claims.json';
import demoTransactions from '../../resources/demo-transactions.json';
import demoBase from '../../resources/demo-workspace.json';

// src/server/seed/demo.ts spreads these files into one bundle: a section in two of them would
// silently replace the other's.
describe('the demo workspace files', () => {
  it('each hold sections no other file holds', () => {
    const sections = [demoBase, demoTransactions, demoBilling, demoClaims].flatMap((file) =>
      Object.keys(file),
    );
    expect(sections.length).toBeGreaterThan(8);
    expect(new Set(sections).size).toBe(sections.length);
  });
});
