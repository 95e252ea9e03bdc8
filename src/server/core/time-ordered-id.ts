import { randomFillSync } from 'node:crypto';

const POOL_IDS = 256;
const pool = Buffer.alloc(16 * POOL_IDS);
let poolAt = POOL_IDS;
let lastMs = 0;
let sequence = 0;

const HEX = Array.from({ length: 256 }, (_, n) => n.toString(16).padStart(2, '0'));

/**
 * A UUID version 7 (RFC 9562): 48 bits of Unix milliseconds, then a 12-bit sequence that keeps
 * ids of one process increasing within a millisecond, then 62 random bits. Rows keyed by these
 * are appended at the right edge of their B-tree indexes: a commit of eight new rows dirties one
 * or two index pages instead of eight random ones (each a 4 KiB WAL frame under
 * `synchronous = FULL`). Not for ids whose first characters are shown as a short reference.
 */
export function timeOrderedUuid(now = Date.now()): string {
  if (now > lastMs) {
    lastMs = now;
    sequence = 0;
  } else if (++sequence > 0xfff) {
    // 4096 ids in one millisecond: borrow the next one, order is kept.
    lastMs += 1;
    sequence = 0;
  }
  if (poolAt === POOL_IDS) {
    randomFillSync(pool);
    poolAt = 0;
  }
  const r = poolAt++ * 16;
  const ms = lastMs;
  const high = Math.floor(ms / 0x10000); // top 32 bits of the 48-bit time
  const low = ms % 0x10000;
  return (
    HEX[(high >>> 24) & 0xff]! +
    HEX[(high >>> 16) & 0xff]! +
    HEX[(high >>> 8) & 0xff]! +
    HEX[high & 0xff]! +
    '-' +
    HEX[low >>> 8]! +
    HEX[low & 0xff]! +
    '-' +
    HEX[0x70 | (sequence >>> 8)]! +
    HEX[sequence & 0xff]! +
    '-' +
    HEX[0x80 | (pool[r + 8]! & 0x3f)]! +
    HEX[pool[r + 9]!]! +
    '-' +
    HEX[pool[r + 10]!]! +
    HEX[pool[r + 11]!]! +
    HEX[pool[r + 12]!]! +
    HEX[pool[r + 13]!]! +
    HEX[pool[r + 14]!]! +
    HEX[pool[r + 15]!]!
  );
}
