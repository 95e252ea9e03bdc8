import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ZodType, z } from 'zod';
import type { AuthUser, ServiceContext } from '../core/context';
import { nulTextIssues } from './nul-text';
import { invalidInput } from './parse';

export interface RouteResponseDoc {
  description: string;
  schema?: ZodType;
}

/** The parts of a request `buildApp` parses with the route's schemas, in this order. */
export type RouteInputPart = 'params' | 'query' | 'body';

/** A part of the request its schema refused. */
export interface InvalidInput {
  part: RouteInputPart;
  issues: readonly z.core.$ZodIssue[];
  /** What was sent, for routes whose message depends on it (e.g. a missing picksheet code). */
  input: unknown;
}

/** Turns a refused part into the endpoint's own error (message, code, status, details). */
export type InvalidHook = (failure: InvalidInput) => Error;

/** A route's schema for one part, or none. */
type InputSchema = ZodType | undefined;
/** What the handler gets for a part: the schema's output, or nothing when the route has none. */
type Parsed<S extends InputSchema> = S extends ZodType ? z.output<S> : undefined;

/** What a handler gets: the parsed input, and the request and reply for anything else. */
export interface RouteInput<P extends InputSchema, Q extends InputSchema, B extends InputSchema> {
  params: Parsed<P>;
  query: Parsed<Q>;
  body: Parsed<B>;
  request: RouteRequest;
  reply: FastifyReply;
}

/**
 * One API route: what Fastify needs to serve it and what the OpenAPI document says of it,
 * from the same zod schemas, so the two cannot drift apart. `buildApp` parses params, query and
 * body with them before the handler runs; a refusal goes through `invalid`.
 */
export interface RouteDef<
  P extends InputSchema = InputSchema,
  Q extends InputSchema = InputSchema,
  B extends InputSchema = InputSchema,
> {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** Fastify path syntax (`/api/x/:id`). */
  url: string;
  summary: string;
  tag: string;
  /** Public routes need no bearer token (token issue, health, the API description). */
  public?: boolean;
  params?: P;
  query?: Q;
  body?: B;
  /** An absent body (no Content-Type) is parsed as `{}`: for bodies whose every field is optional. */
  optionalBody?: boolean;
  /** Request headers the route reads (documented only; the handler parses them). */
  headers?: ZodType;
  /**
   * Schemas the OpenAPI document shows but `buildApp` does not parse: the handler or its domain
   * parses these itself, for the reason the route gives (e.g. only after the device is known).
   */
  unparsed?: { query?: ZodType; body?: ZodType };
  /** The endpoint's error for a refused part; the default is `Invalid <part>` with the issues. */
  invalid?: InvalidHook;
  /** Runs when the input is refused, before the error answer goes out (e.g. to log the refusal). */
  onInvalid?(error: unknown, request: RouteRequest, ctx: ServiceContext): Promise<void>;
  responses: Record<number, RouteResponseDoc>;
  /** The interface's message for an unhandled failure of this endpoint. */
  internalErrorMessage?: string;
  /** The endpoint's 401 message for a missing or bad token, where the interface names its own. */
  unauthenticatedMessage?: string;
  /** The endpoint's message for an empty JSON body, where the interface names one. */
  emptyBodyMessage?: string;
  /** The body's media type where it is not JSON: the OpenAPI document and the 415 answer name it. */
  bodyContentType?: string;
  bodyLimit?: number;
  handler(input: RouteInput<P, Q, B>, ctx: ServiceContext): Promise<unknown>;
}

/**
 * A route with its input types inferred from its schemas; a part without a schema is `undefined`.
 * The defaults apply when a part is absent, so the handler sees `undefined`, not `unknown`;
 * `NoInfer` keeps a `RouteDef[]` around the call from widening them.
 */
export function defineRoute<
  P extends InputSchema = undefined,
  Q extends InputSchema = undefined,
  B extends InputSchema = undefined,
>(def: RouteDef<P, Q, B>): RouteDef<NoInfer<P>, NoInfer<Q>, NoInfer<B>> {
  return def;
}

/** The messages the default `invalid` hook answers with, per part. */
const DEFAULT_MESSAGES: Record<RouteInputPart, string> = {
  params: 'Invalid path parameters',
  query: 'Invalid query parameters',
  body: 'Invalid request body',
};

/**
 * An `invalid` hook answering INVALID_REQUEST with the given message for each part (the default
 * for the others) and the issues as a `details` string, e.g. `items.0.quantity: ...`.
 */
export function invalidAs(messages: Partial<Record<RouteInputPart, string>>): InvalidHook {
  return ({ part, issues }) => invalidInput(messages[part] ?? DEFAULT_MESSAGES[part], issues);
}

export const defaultInvalid: InvalidHook = invalidAs({});

export type RouteRequest = FastifyRequest & { user: AuthUser | null };

/** The signed-in user of an authorised route (the auth hook guarantees it is set). */
export function userOf(request: FastifyRequest): AuthUser {
  const user = (request as RouteRequest).user;
  if (!user) throw new Error('userOf called on a public route');
  return user;
}

/** Parses one part with its schema; a refusal throws what the route's hook makes of it. */
export function parsePart<S extends ZodType>(
  schema: S,
  part: RouteInputPart,
  input: unknown,
  invalid: InvalidHook = defaultInvalid,
): z.output<S> {
  const result = schema.safeParse(input);
  if (!result.success) throw invalid({ part, issues: result.error.issues, input });
  const nul = nulTextIssues(result.data);
  if (nul.length > 0) throw invalid({ part, issues: nul, input });
  return result.data;
}

/** The route's params, query and body, parsed in that order (so the first bad part answers). */
export function parseRouteInput(def: RouteDef, request: FastifyRequest) {
  const body = def.optionalBody ? (request.body ?? {}) : request.body;
  return {
    params: def.params ? parsePart(def.params, 'params', request.params, def.invalid) : undefined,
    query: def.query ? parsePart(def.query, 'query', request.query, def.invalid) : undefined,
    body: def.body ? parsePart(def.body, 'body', body, def.invalid) : undefined,
  };
}
