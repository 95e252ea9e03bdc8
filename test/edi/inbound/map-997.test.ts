import { describe, expect, it } from 'vitest';
import { map997 } from '../../../src/server/edi/inbound/map-997';
import { readX12 } from '../../../src/server/edi/x12/reader';
import { editSegment, golden, setElement } from './edi-text';

const ACK = golden('997-partial.edi');
const mapped = (text: string) => map997(readX12(text).interchange!.groups[0]!.sets[0]!);

describe('map997', () => {
  it('reads which of our sets were accepted or rejected, with the notes', () => {
    expect(mapped(ACK)).toEqual({
      functional_id: 'IN',
      group_control: '1021',
      group_code: 'P',
      group_outcome: 'partially_accepted',
      included: 2,
      received: 2,
      accepted: 1,
      group_codes: [],
      sets: [
        { id: '810', control: '0001', code: 'A', outcome: 'accepted', set_codes: [], notes: [] },
        {
          id: '810',
          control: '0002',
          code: 'R',
          outcome: 'rejected',
          set_codes: ['5'],
          notes: [
            { segment: 'IT1', position: '4', code: '8', elements: [['2', '358', '6', '1O']] },
          ],
        },
      ],
      faults: [],
    });
  });

  it('E is accepted with errors; an unknown AK501 or a missing AK5/AK9 is a fault', () => {
    const e = mapped(editSegment(ACK, 'AK5', () => 'AK5*E'));
    expect(e.sets[0]!.outcome).toBe('accepted_with_errors');
    const unknown = mapped(editSegment(ACK, 'AK5', () => 'AK5*Q'));
    expect(unknown.faults.map((f) => [f.segment, f.code, f.elements[0]?.code])).toEqual([
      ['AK5', '8', '7'],
    ]);
    const noAk5 = mapped(editSegment(ACK, 'AK5', () => null));
    expect(noAk5.faults.map((f) => [f.segment, f.code])).toEqual([['AK5', '3']]);
    const noAk9 = mapped(editSegment(ACK, 'AK9', () => null));
    expect(noAk9.faults.map((f) => [f.segment, f.code])).toEqual([['AK9', '3']]);
    const badControl = mapped(editSegment(ACK, 'AK1', (s) => setElement(s, 2, 'X1')));
    expect(badControl.faults.map((f) => [f.segment, f.elements[0]?.code])).toEqual([['AK1', '6']]);
  });
});
