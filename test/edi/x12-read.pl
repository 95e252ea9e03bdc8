#!/usr/bin/perl
# Reads an X12 file with Debian's X12::Parser (an independent reader) and prints JSON:
# the separators it found in the ISA and every loop with its segments split into elements.
use strict;
use warnings;
use X12::Parser;
use JSON::PP;

my ($file, $cf) = @ARGV;
my $p = X12::Parser->new;
$p->parsefile(file => $file, conf => $cf);
my $element = $p->get_element_separator;
my $segment = $p->get_segment_separator;
my @loops;
while (my $loop = $p->get_next_loop) {
  my @segments = map { [split(/\Q$element\E/, $_, -1)] } $p->get_loop_segments;
  push @loops, { name => $loop, segments => \@segments };
}
print JSON::PP->new->canonical->encode({
  element => $element,
  segment => $segment,
  component => $p->get_subelement_separator,
  loops => \@loops,
});
