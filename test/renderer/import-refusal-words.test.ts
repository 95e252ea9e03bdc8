import { describe, expect, it } from 'vitest';
import { ApiError } from '../../src/renderer/src/api/ApiError';
import { importRefusalWords } from '../../src/renderer/src/screens/edi/importRefusalWords';

const answer = (status: number, message: string) =>
  new ApiError(status, status === 404 ? 'NOT_FOUND' : 'INVALID_REQUEST', message);

describe('an imported file refused without a record, in a clerk’s words', () => {
  it.each([
    [answer(400, 'The interchange is empty'), 'The file is empty.'],
    [
      answer(400, 'The file is not an X12 interchange: no ISA segment'),
      'This file is not an X12 interchange (it must begin with an ISA segment). Check that it is the purchase order file the retailer sent.',
    ],
    [
      answer(404, 'No EDI connection of yours takes interchanges from "ACMEPO" to "WAREHOUSE1"'),
      'No connection of yours takes files from sender ID ACMEPO to receiver ID WAREHOUSE1. Check that the file is meant for this company; if it is, ask an administrator to add these IDs to the retailer’s connection.',
    ],
    [
      answer(413, 'Request body is too large'),
      'The file is larger than 16 MB, the most one file may be. Ask the retailer to send it in smaller files.',
    ],
    // An answer the screen has no words for is shown as the service said it.
    [
      answer(409, 'Only the central service takes interchanges in'),
      'Only the central service takes interchanges in',
    ],
    [
      new ApiError(0, 'NETWORK_ERROR', 'fetch failed'),
      'Could not reach the service. Check that it is running, then try again.',
    ],
  ])('%s', (error, words) => {
    expect(importRefusalWords(error)).toBe(words);
  });
});
