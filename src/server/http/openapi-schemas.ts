import { z, type ZodType } from 'zod';

export const errorEnvelopeSchema = z.object({
  message: z.string(),
  error: z.looseObject({ code: z.string() }),
});

export const successEnvelope = <T extends ZodType>(data: T) =>
  z.object({ message: z.string(), data });
