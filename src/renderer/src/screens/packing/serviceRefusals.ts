import { NO_LABEL_PRINTER, PRINTER_ADDRESS_REFUSED_PREFIX } from '../../../../shared/documents';
import { PACKING_COMPLETE } from '../../../../shared/fulfilment';
import { isApiError } from '../../api/ApiError';

/**
 * Which refusals of the service the packing screen answers with an offer of its own, matched on
 * the service's exported wording (src/shared), never on a copy of it.
 */

/** A scan refused because the order is Packed: the screen offers to reopen packing. */
export function isPackingComplete(error: unknown): boolean {
  return isApiError(error) && error.status === 409 && error.message === PACKING_COMPLETE;
}

/**
 * A print the same labels as a PDF can stand in for: the printer failed (502), or no printer is set
 * or its address is not allowed (409). Other 409s (a unit without a valid SSCC) fail the PDF too.
 */
export function offersPdfInstead(error: unknown): boolean {
  if (!isApiError(error)) return false;
  if (error.status === 502) return true;
  return (
    error.status === 409 &&
    (error.message === NO_LABEL_PRINTER || error.message.startsWith(PRINTER_ADDRESS_REFUSED_PREFIX))
  );
}
