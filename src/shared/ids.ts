import { z } from 'zod';

/** A UUID, compared in lower case (ids are stored lower case), so `0F00…` finds `0f00…`. */
export const uuidSchema = z.uuid().transform((value) => value.toLowerCase());
