import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Debian's Perl X12::Parser (libx12-parser-perl) as an independent reader of what we write: it
 * walks the interchange with its own 997 loop map and prints each loop's segments.
 */

const SCRIPT = `
use strict;
use X12::Parser;
my $p = X12::Parser->new;
$p->parsefile(file => $ARGV[0], conf => $ARGV[1]);
while (my ($pos, $level, $loop) = $p->get_next_pos_level_loop) {
  for my $segment ($p->get_loop_segments) { print "$loop\\t$segment\\n"; }
}
`;

const available =
  spawnSync('perl', ['-MX12::Parser', '-e', 'print $INC{"X12/Parser.pm"}'], { encoding: 'utf8' })
    .status === 0;

/** Why the Perl checks cannot run here, or null when they can. */
export const perlMissing = available
  ? null
  : 'perl with X12::Parser is not installed (apt-get install libx12-parser-perl)';

function configDir(): string {
  const found = spawnSync('perl', ['-MX12::Parser', '-e', 'print $INC{"X12/Parser.pm"}'], {
    encoding: 'utf8',
  });
  return join(found.stdout.replace(/\.pm$/, ''), 'cf');
}

/** The loops and segments X12::Parser reads from `text`, with its 997 map. */
export function perlRead997(text: string): { loop: string; segment: string }[] {
  const dir = mkdtempSync(join(tmpdir(), 'x12-perl-'));
  try {
    const file = join(dir, 'in.x12');
    writeFileSync(file, text);
    const run = spawnSync('perl', ['-e', SCRIPT, file, join(configDir(), '997.cf')], {
      encoding: 'utf8',
    });
    if (run.status !== 0) throw new Error(`X12::Parser failed: ${run.stderr}`);
    return run.stdout
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => {
        const [loop = '', segment = ''] = line.split('\t');
        return { loop, segment };
      });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
