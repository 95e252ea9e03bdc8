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

/** Refusals of the central's constraints, the same words on either engine. */
export const PICKSHEET_TAKEN = () =>
  new Refusal('The picksheet code is already used at this facility on the central service');
export const SSCC_TAKEN = () => new Refusal('The SSCC is already used on the central service');
export const MISSING_REFERENCE = () =>
  new Refusal('It refers to a record the central service does not have');
