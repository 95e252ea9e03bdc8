/**
 * Which failed sends of an order document wait on the place it goes to, not on the document: a
 * folder or remote directory that is missing, not writable, full, or a file where a folder
 * should be. The transports call these final (no quick retry within one send), yet an
 * administrator who fixes the folder fixes every document waiting for it; so the drainer plans
 * them again like network trouble, and no clerk has to press Retry on each
 * (decision 0234).
 */
const TARGET_FAULT = /^(ENOENT|ENOTDIR|EEXIST|EISDIR|EACCES|EPERM|EROFS|ENOSPC|EDQUOT|EIO):/;

export function isTargetFault(error: string | null): boolean {
  return error !== null && TARGET_FAULT.test(error);
}
