import fastifyStatic from '@fastify/static';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { existsSync } from 'node:fs';
import type { ServiceContext } from '../core/context';
import { noteWriteFailure, storageStatusOf } from '../db/storage-status';
import { diskFull, DomainError, unauthenticated } from '../core/errors';
import { verifyAccessToken } from '../access';
import { authUserById } from '../access';
import { answerClientError } from './client-error';
import { envelopeOf, httpStatusOf, internalError, unsupportedMediaTypeMessage } from './errors';
import { createHostGuard } from './host-guard';
import { API_DOCS_PREFIX, registerApiDocs } from './openapi';
import { parseRouteInput, type RouteDef, type RouteRequest } from './route-def';
import { allRoutes } from './routes';

export const DEFAULT_BODY_LIMIT = 1024 * 1024;

export interface AppOptions {
  /** Bind host. */
  host: string;
  /** Host header names remote clients may use (`--allowed-host`); loopback names need a loopback peer. */
  allowedHosts?: string[];
  /** The built UI (out/renderer); null serves the API alone. */
  uiDir: string | null;
  logger?: boolean;
  routes?: RouteDef[];
}

export const UI_CSP =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; " +
  "connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'";

/** Builds the Fastify app: guards, error envelope, routes, API docs and the UI. */
const hostNotAllowed = () =>
  new DomainError('forbidden', 'UNAUTHORIZED', 'Host header not allowed');

const DOCS_SECURITY_HEADERS = {
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
};
const SECURITY_HEADERS = { ...DOCS_SECURITY_HEADERS, 'Content-Security-Policy': UI_CSP };

/** Built once, not per request. */
function securityHeaders(url: string): Record<string, string> {
  return url.startsWith(API_DOCS_PREFIX) ? DOCS_SECURITY_HEADERS : SECURITY_HEADERS;
}

export async function buildApp(ctx: ServiceContext, options: AppOptions): Promise<FastifyInstance> {
  const hostAllowed = createHostGuard(options.allowedHosts);
  const app = Fastify({
    logger: options.logger ? { level: 'info' } : false,
    bodyLimit: DEFAULT_BODY_LIMIT,
    return503OnClosing: true,
    // Requests the HTTP parser refuses never reach Fastify; answer them in the envelope too.
    clientErrorHandler: answerClientError,
    // Bad URLs (e.g. `%` alone) fail before routing and skip setErrorHandler; answer them here.
    frameworkErrors: (_error, request, reply: FastifyReply) => {
      const failure = hostAllowed(request.headers.host, request.socket.remoteAddress)
        ? new DomainError('invalid_request', 'INVALID_REQUEST', 'Malformed URL')
        : hostNotAllowed();
      void reply
        .status(httpStatusOf(failure))
        .headers(securityHeaders(request.url))
        .send(envelopeOf(failure));
    },
  });
  app.decorateRequest('user', null);
  // Only JSON bodies are accepted; Fastify's text/plain parser would let strings through.
  app.removeContentTypeParser('text/plain');
  // …and X12 interchanges as text, for POST /api/v1/edi/inbound (its own body limit applies).
  app.addContentTypeParser('application/edi-x12', { parseAs: 'string' }, (_request, body, done) =>
    done(null, body),
  );

  app.addHook('onRequest', async (request) => {
    if (!hostAllowed(request.headers.host, request.socket.remoteAddress)) throw hostNotAllowed();
    if (needsToken(request)) (request as RouteRequest).user = await authenticate(ctx, request);
  });

  // A callback hook, not async: no promise per response.
  app.addHook('onSend', (request, reply, payload, done) => {
    reply.headers(securityHeaders(request.url));
    done(null, payload);
  });

  app.setErrorHandler((error, request, reply) => {
    // ENOSPC from a file write (a BOL, a document) never passes the database driver: note it here.
    const full = noteWriteFailure(storageStatusOf(ctx.db), error);
    const failure = full ? diskFull(ctx.dataDir) : toDomainError(error, request);
    if (failure.kind === 'internal') request.log.error({ err: error }, 'unhandled error');
    return reply.status(httpStatusOf(failure)).send(envelopeOf(failure));
  });

  app.setNotFoundHandler((request, reply) => {
    const failure = new DomainError(
      'not_found',
      'NOT_FOUND',
      `Route ${request.method} ${request.url.split('?')[0]} not found`,
    );
    return reply.status(404).send(envelopeOf(failure));
  });

  const routes = options.routes ?? allRoutes;
  for (const def of routes) {
    app.route({
      method: def.method,
      url: def.url,
      config: {
        public: def.public ?? false,
        internalErrorMessage: def.internalErrorMessage,
        emptyBodyMessage: def.emptyBodyMessage,
        bodyContentType: def.bodyContentType,
        unauthenticatedMessage: def.unauthenticatedMessage,
      },
      ...(def.bodyLimit ? { bodyLimit: def.bodyLimit } : {}),
      handler: async (request, reply) => {
        const input = await parsedInput(def, request as RouteRequest, ctx);
        return def.handler({ ...input, request: request as RouteRequest, reply }, ctx);
      },
    });
  }
  await registerApiDocs(app, routes);

  if (options.uiDir && existsSync(options.uiDir)) {
    await app.register(fastifyStatic, { root: options.uiDir, prefix: '/', index: 'index.html' });
  }
  return app;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    public?: boolean;
    internalErrorMessage?: string;
    emptyBodyMessage?: string;
    bodyContentType?: string;
    unauthenticatedMessage?: string;
  }
}

/** The route's input parsed with its own schemas; a refusal runs the route's `onInvalid` first. */
async function parsedInput(def: RouteDef, request: RouteRequest, ctx: ServiceContext) {
  try {
    return parseRouteInput(def, request);
  } catch (error) {
    await def.onInvalid?.(error, request, ctx);
    throw error;
  }
}

/** API routes need a token unless marked public; the UI's files and the API reference do not. */
function needsToken(request: FastifyRequest): boolean {
  const url = request.routeOptions.url;
  if (!url || !url.startsWith('/api/') || url.startsWith(API_DOCS_PREFIX)) return false;
  return !request.routeOptions.config.public;
}

async function authenticate(ctx: ServiceContext, request: FastifyRequest) {
  const header = request.headers.authorization;
  // The scheme name is case-insensitive (RFC 9110 11.1).
  const match = header ? /^Bearer +([A-Za-z0-9._~+/=-]+)$/i.exec(header.trim()) : null;
  const nowSeconds = Math.floor(ctx.clock.now().getTime() / 1000);
  const userId = match?.[1] ? await verifyAccessToken(ctx.secret, match[1], nowSeconds) : null;
  const user = userId ? await authUserById(ctx.db, userId) : undefined;
  if (!user) throw unauthenticated(request.routeOptions.config.unauthenticatedMessage);
  return user;
}

/** Maps anything thrown while serving a request to the interface's envelope; never a bare 500. */
function toDomainError(error: unknown, request: FastifyRequest): DomainError {
  if (error instanceof DomainError) return error;
  const { code, statusCode } = (error ?? {}) as { code?: string; statusCode?: number };
  switch (code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new DomainError(
        'payload_too_large',
        'INVALID_REQUEST',
        `Request body is too large (limit ${request.routeOptions.bodyLimit ?? DEFAULT_BODY_LIMIT} bytes)`,
      );
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new DomainError(
        'unsupported_media_type',
        'INVALID_REQUEST',
        unsupportedMediaTypeMessage(request.routeOptions.config?.bodyContentType),
      );
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new DomainError(
        'invalid_request',
        'INVALID_REQUEST',
        request.routeOptions.config?.emptyBodyMessage ?? 'Request body is empty',
      );
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return new DomainError(
        'invalid_request',
        'INVALID_REQUEST',
        'Malformed JSON in request body',
      );
  }
  if (error instanceof SyntaxError && statusCode === 400) {
    return new DomainError('invalid_request', 'INVALID_REQUEST', 'Malformed JSON in request body');
  }
  if (statusCode && statusCode >= 400 && statusCode < 500) {
    return new DomainError('invalid_request', 'INVALID_REQUEST', 'Invalid request');
  }
  const message = request.routeOptions.config?.internalErrorMessage;
  return message ? new DomainError('internal', 'INTERNAL_SERVER_ERROR', message) : internalError();
}
