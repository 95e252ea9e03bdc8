import { z } from 'zod';

/** Endpoint 1 body. Both fields are required non-empty strings; anything else is "Missing parameters". */
export const tokenRequestSchema = z.object({
  email: z.string().trim().min(1, 'Email is required').max(320),
  password: z.string().min(1, 'Password is required').max(1024),
});
export type TokenRequest = z.infer<typeof tokenRequestSchema>;

export const tokenResponseSchema = z.object({
  access_token: z.string(),
  token_type: z.literal('Bearer'),
  expires_in: z.number().int().describe('Lifetime of the token in seconds'),
});
export type TokenResponse = z.infer<typeof tokenResponseSchema>;
