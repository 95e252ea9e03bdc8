import type { ZodType, z } from 'zod';
import {
  billingPricesBodySchema,
  billingPricesSchema,
  brandIdParamsSchema,
  invoiceDetailsPageSchema,
  invoiceDetailsQuerySchema,
  invoiceQuerySchema,
  invoiceSchema,
} from '../../shared/billing';
import type { AuthUser, ServiceContext } from '../core/context';
import { invoiceOrderDetails } from './order-details';
import { invoices } from './invoices';
import { BRAND_NOT_FOUND, getBillingPrices, setBillingPrices } from './prices';
import { notFound } from '../core/errors';
import { UUID_TEXT } from '../../shared/ids';
import { errorEnvelopeSchema, successEnvelope } from '../http/openapi-schemas';
import { invalidInput } from '../http/parse';
import { defineRoute, userOf, type InvalidHook, type RouteDef } from '../http/route-def';

const INVOICES = 'Invoices retrieved successfully';
const DETAILS = 'Invoice order details retrieved successfully';

/** The path's brand id; the refinement leaves the documented schema (a string) as it is. */
const brandParamsSchema = brandIdParamsSchema.refine(({ brand_id }) => UUID_TEXT.test(brand_id));

/** A malformed brand id names no brand: the same 404 as an unknown one. */
const invalidPrices: InvalidHook = ({ part, issues }) =>
  part === 'params' ? notFound(BRAND_NOT_FOUND) : invalidInput('Invalid billing prices', issues);

const error = (description: string) => ({ description, schema: errorEnvelopeSchema });

interface ReportRouteSpec<Q extends ZodType> {
  url: string;
  summary: string;
  query: Q;
  data: ZodType;
  message: string;
  /** The 400 description: the messages a bad query answers. */
  badQuery: string;
  read(ctx: ServiceContext, user: AuthUser, query: z.output<Q>): Promise<unknown>;
}

/** A billing report read (12, 13): parse the query, read, answer `message` with the data. */
function reportRoute<Q extends ZodType>(spec: ReportRouteSpec<Q>): RouteDef {
  return defineRoute<undefined, Q, undefined>({
    method: 'GET',
    url: spec.url,
    summary: spec.summary,
    tag: 'Billing',
    query: spec.query,
    unauthenticatedMessage: 'Unauthorized',
    responses: {
      200: { description: spec.message, schema: successEnvelope(spec.data) },
      400: error(spec.badQuery),
      401: error('Unauthorized'),
    },
    async handler({ query, request }, ctx) {
      const data = await spec.read(ctx, userOf(request), query as z.output<Q>);
      return { message: spec.message, data };
    },
  });
}

/** Invoices (12, 13) and billing prices. */
export const billingRoutes: RouteDef[] = [
  reportRoute({
    url: '/api/v1/fintech/invoices',
    summary: 'Invoices: billing summaries per brand (priced line metrics and actions)',
    query: invoiceQuerySchema,
    data: invoiceSchema,
    message: INVOICES,
    badQuery:
      "Invalid transportation_method: '<value>'. Allowed values: FREIGHT, PARCEL; Invalid date format: ...",
    read: invoices,
  }),
  reportRoute({
    url: '/api/v1/fintech/invoice-order-details',
    summary: 'Invoice order details: per order counts and priced actions, paginated',
    query: invoiceDetailsQuerySchema,
    data: invoiceDetailsPageSchema,
    message: DETAILS,
    badQuery: 'Invalid date format: ...; Invalid query parameter: ...',
    read: invoiceOrderDetails,
  }),
  defineRoute({
    method: 'GET',
    url: '/api/v1/billing/prices/:brand_id',
    summary: "A brand's billing prices (unit prices of line metrics and actions, dollars)",
    tag: 'Billing',
    params: brandParamsSchema,
    invalid: invalidPrices,
    responses: {
      200: {
        description: 'Billing prices retrieved successfully',
        schema: successEnvelope(billingPricesSchema),
      },
      401: error('Authentication failed'),
      404: error('Brand not found (also a brand the user does not see)'),
    },
    async handler({ params, request }, ctx) {
      const brandId = params.brand_id.toLowerCase();
      const data = await getBillingPrices(ctx, userOf(request), brandId);
      return { message: 'Billing prices retrieved successfully', data };
    },
  }),
  defineRoute({
    method: 'PUT',
    url: '/api/v1/billing/prices/:brand_id',
    summary:
      "Replace a brand's billing prices (needs an admin grant for the brand at a facility the user sees)",
    tag: 'Billing',
    params: brandParamsSchema,
    body: billingPricesBodySchema,
    invalid: invalidPrices,
    emptyBodyMessage: 'Invalid billing prices',
    responses: {
      200: {
        description: 'Billing prices updated successfully',
        schema: successEnvelope(billingPricesSchema),
      },
      400: error('Invalid billing prices'),
      401: error('Authentication failed'),
      403: error('Unauthorized (no admin grant for the brand)'),
      404: error('Brand not found (also a brand the user does not see)'),
    },
    async handler({ params, body, request }, ctx) {
      const brandId = params.brand_id.toLowerCase();
      const data = await setBillingPrices(ctx, userOf(request), brandId, body);
      return { message: 'Billing prices updated successfully', data };
    },
  }),
];
