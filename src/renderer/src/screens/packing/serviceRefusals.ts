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
