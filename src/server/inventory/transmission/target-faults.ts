import type { DeliveryOutcome } from './types';

/**
 * Which failed sends wait on the place the document goes to, not on the document: a folder or
 * remote directory that is missing, not writable, full, or a file where a folder should be. The
 * transports call these final (no quick retry within one send), yet an administrator who fixes
 * the folder fixes every delivery waiting for it; so the outboxes plan them again like network
 * trouble, and no clerk has to press Retry on each (decision 0234).
 */
const TARGET_FAULT = /^(ENOENT|ENOTDIR|EEXIST|EISDIR|EACCES|EPERM|EROFS|ENOSPC|EDQUOT|EIO):/;

export function isTargetFault(error: string | null): boolean {
  return error !== null && TARGET_FAULT.test(error);
}

/**
 * Whether a later background try may succeed: what the transport calls transient, or a target
 * fault of a send that was tried (a refusal before any attempt, such as a path outside the data
 * dir, stays final).
 */
export function worthTryingAgain(outcome: DeliveryOutcome): boolean {
  return outcome.retryable || (outcome.attempts.length > 0 && isTargetFault(outcome.error));
}
