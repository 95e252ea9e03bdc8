import type { ConflictField } from '../../shared/sync';

/** A mutation the central refuses for good: recorded as a conflict, and last_seq moves on. */
export class Refusal extends Error {
  constructor(
    message: string,
    readonly fields: ConflictField[] = [],
  ) {
    super(message);
  }
}
