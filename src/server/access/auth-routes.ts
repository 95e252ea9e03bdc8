import { tokenRequestSchema, tokenResponseSchema } from '../../shared/auth';
import { issueToken } from './auth';
import { invalidRequest } from '../core/errors';
import { errorEnvelopeSchema, successEnvelope } from '../http/openapi-schemas';
import { defineRoute, type RouteDef } from '../http/route-def';

export const authRoutes: RouteDef[] = [
  defineRoute({
    method: 'POST',
    url: '/api/auth/token',
    summary: 'Issue an access token',
    tag: 'Authentication',
    public: true,
    emptyBodyMessage: 'Missing parameters',
    body: tokenRequestSchema,
    responses: {
      200: { description: 'Token issued', schema: successEnvelope(tokenResponseSchema) },
      400: { description: 'Missing parameters', schema: errorEnvelopeSchema },
      401: { description: 'Invalid credentials', schema: errorEnvelopeSchema },
      429: { description: 'Too many failed sign-ins for this email', schema: errorEnvelopeSchema },
    },
    invalid: () => invalidRequest('Missing parameters'),
    async handler({ body }, ctx) {
      const data = await issueToken(ctx, body.email, body.password);
      return { message: 'API token issued successfully', data };
    },
  }),
];
