import { describe, expect, it } from 'vitest';
import { statementNamer } from '../../src/server/db/postgres/statement-names';

describe('statementNamer', () => {
  it('gives each text one name for good, and none past its cap', () => {
    const name = statementNamer('t', 2);
    expect(name('SELECT 1')).toBe('t_1');
    expect(name('SELECT 2')).toBe('t_2');
    expect(name('SELECT 1')).toBe('t_1');
    expect(name('SELECT 3')).toBeUndefined();
    expect(name('SELECT 2')).toBe('t_2');
  });

  it('keeps namers apart: the same text is named by each', () => {
    const pull = statementNamer('pull', 5);
    const push = statementNamer('push', 5);
    expect([pull('SELECT 1'), push('SELECT 1')]).toEqual(['pull_1', 'push_1']);
  });
});
