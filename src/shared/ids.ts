import { z } from 'zod';

/** A UUID, compared in lower case (ids are stored lower case), so `0F00…` finds `0f00…`. */
export const uuidSchema = z.uuid().transform((value) => value.toLowerCase());

/**
 * Any UUID's text form, in any case. Looser than `uuidSchema` (which also checks the version and
 * variant digits): filters that take ids from other systems' exports accept any of them.
 */
export const UUID_TEXT = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
