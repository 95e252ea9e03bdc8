import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ZodType } from 'zod';
import type { AuthUser, ServiceContext } from '../core/context';

export interface RouteResponseDoc {
  description: string;
  schema?: ZodType;
}

/**
 * One API route: what Fastify needs to serve it and what the OpenAPI document says of it,
 * from the same zod schemas, so the two cannot drift apart.
 */
export interface RouteDef {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** Fastify path syntax (`/api/x/:id`). */
  url: string;
  summary: string;
  tag: string;
  /** Public routes need no bearer token (token issue, health, the API description). */
  public?: boolean;
  params?: ZodType;
  query?: ZodType;
  /** Request headers the route reads (documented only; the handler parses them). */
  headers?: ZodType;
  body?: ZodType;
  responses: Record<number, RouteResponseDoc>;
  /** The interface's message for an unhandled failure of this endpoint. */
  internalErrorMessage?: string;
  /** The endpoint's 401 message for a missing or bad token, where the interface names its own. */
  unauthenticatedMessage?: string;
  /** The endpoint's message for an empty JSON body, where the interface names one. */
  emptyBodyMessage?: string;
  bodyLimit?: number;
  handler(request: RouteRequest, reply: FastifyReply, ctx: ServiceContext): Promise<unknown>;
}

export type RouteRequest = FastifyRequest & { user: AuthUser | null };

/** The signed-in user of an authorised route (the auth hook guarantees it is set). */
export function userOf(request: FastifyRequest): AuthUser {
  const user = (request as RouteRequest).user;
  if (!user) throw new Error('userOf called on a public route');
  return user;
}
