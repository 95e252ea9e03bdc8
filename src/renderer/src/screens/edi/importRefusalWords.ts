import { INBOUND_MAX_BYTES } from '../../../../shared/edi-inbound';
import { humanSize } from '../../../../shared/human-size';
import { describeError, isApiError } from '../../api/ApiError';

/**
 * Why an imported file was refused when the service kept no record of it (no connection of
 * the caller's takes it, so the EDI inbox has no reason to show): the service's answer in a
 * clerk's words, saying what to check. Answers the screen has no words for are shown as they are.
 */
export function importRefusalWords(error: unknown): string {
  const said = describeError(error);
  if (!isApiError(error)) return said;
  if (error.status === 413) {
    return `The file is larger than ${humanSize(INBOUND_MAX_BYTES)}, the most one file may be. Ask the retailer to send it in smaller files.`;
  }
  if (said === 'The interchange is empty') return 'The file is empty.';
  if (said.startsWith('The file is not an X12 interchange')) {
    return 'This file is not an X12 interchange (it must begin with an ISA segment). Check that it is the purchase order file the retailer sent.';
  }
  const addressed = /^No EDI connection of yours takes interchanges from "(.*)" to "(.*)"$/.exec(
    said,
  );
  if (addressed) {
    return (
      `No connection of yours takes files from sender ID ${addressed[1] || '(none)'} to ` +
      `receiver ID ${addressed[2] || '(none)'}. Check that the file is meant for this company; ` +
      'if it is, ask an administrator to add these IDs to the retailer’s connection.'
    );
  }
  return said;
}
