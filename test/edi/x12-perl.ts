/** Reads X12 text back with Debian's Perl X12::Parser (an independent reader) through x12-read.pl. */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export interface PerlReading {
  element: string;
  segment: string;
  component: string;
  loops: { name: string; segments: string[][] }[];
}

const SCRIPT = fileURLToPath(new URL('./x12-read.pl', import.meta.url));
export const CF_856 = fileURLToPath(new URL('./cf/856.cf', import.meta.url));
export const CF_997 = '/usr/share/perl5/X12/Parser/cf/997.cf';

export function readWithPerl(text: string, cf: string): PerlReading {
  const dir = mkdtempSync(join(tmpdir(), 'x12-perl-'));
  try {
    const file = join(dir, 'in.x12');
    writeFileSync(file, text, 'latin1');
    return JSON.parse(
      execFileSync('perl', [SCRIPT, file, cf], { encoding: 'utf8' }),
    ) as PerlReading;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Every segment in document order, as the Perl reader split them. */
export const segmentsOf = (reading: PerlReading): string[][] =>
  reading.loops.flatMap((loop) => loop.segments);
