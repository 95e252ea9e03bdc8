import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z, type ZodType } from 'zod';
import { APP_VERSION } from '../core/version';
import type { RouteDef } from './route-def';

export const API_DOCS_PREFIX = '/api/docs';

const jsonSchemaOf = (schema: ZodType) =>
  z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;

/** Path, query and header parameters, one entry per key of the route's object schemas. */
function parametersOf(def: RouteDef) {
  const parameters: Record<string, unknown>[] = [];
  for (const [where, schema] of [
    ['path', def.params],
    ['query', def.query ?? def.unparsed?.query],
    ['header', def.headers],
  ] as const) {
    if (!schema) continue;
    const json = jsonSchemaOf(schema) as {
      properties?: Record<string, unknown>;
      required?: string[];
    };
    for (const [name, property] of Object.entries(json.properties ?? {})) {
      const required = where === 'path' || (json.required ?? []).includes(name);
      parameters.push({ name, in: where, required, schema: property });
    }
  }
  return parameters;
}

/** The OpenAPI 3.1 document, generated from the routes' zod schemas. */
export function buildOpenApiDocument(routes: RouteDef[]) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const def of routes) {
    const body = def.body ?? def.unparsed?.body;
    const path = def.url.replace(/:([A-Za-z_][A-Za-z0-9_]*)/g, '{$1}');
    const responses = Object.fromEntries(
      Object.entries(def.responses).map(([status, doc]) => [
        status,
        {
          description: doc.description,
          ...(doc.schema
            ? { content: { 'application/json': { schema: jsonSchemaOf(doc.schema) } } }
            : {}),
        },
      ]),
    );
    paths[path] ??= {};
    paths[path][def.method.toLowerCase()] = {
      summary: def.summary,
      tags: [def.tag],
      operationId: `${def.method.toLowerCase()}${path.replace(/[^A-Za-z0-9]+/g, '_')}`,
      ...(def.public ? { security: [] } : {}),
      parameters: parametersOf(def),
      ...(body
        ? {
            requestBody: {
              required: true,
              content: {
                [def.bodyContentType ?? 'application/json']: { schema: jsonSchemaOf(body) },
              },
            },
          }
        : {}),
      responses,
    };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Retail Fulfillment Integration Service',
      version: APP_VERSION,
      description:
        'Local API of the fulfillment integration desktop app. Every route but the token, health and this description needs `Authorization: Bearer <token>` from POST /api/auth/token; tokens last `expires_in` seconds.',
    },
    servers: [
      {
        url: '{base_url}',
        description: 'Production',
        variables: { base_url: { default: 'http://127.0.0.1:8787' } },
      },
      {
        url: '{staging_url}',
        description: 'Staging',
        variables: { staging_url: { default: 'https://staging.example.com' } },
      },
    ],
    security: [{ bearerAuth: [] }],
    components: {
      securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } },
    },
    paths,
  };
}

type OpenApiDocument = ReturnType<typeof buildOpenApiDocument>;

/** A Host header worth echoing: a name or an IP literal, with an optional port. */
const HOST_PATTERN = /^(?:[A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/;

/** The origin the caller reached this service at, e.g. `http://127.0.0.1:40123`, if it is sane. */
export function liveOriginOf(request: FastifyRequest): string | null {
  const host = request.host;
  return host && HOST_PATTERN.test(host) ? `${request.protocol}://${host}` : null;
}

/**
 * The document as served: the origin the caller is using comes first (Swagger UI's "Try it out"
 * uses the first server), and the production variable defaults to it instead of a fixed port.
 */
export function withLiveOrigin<T extends Pick<OpenApiDocument, 'servers'>>(
  document: T,
  origin: string | null,
): T {
  if (!origin) return document;
  const [production, ...others] = document.servers;
  return {
    ...document,
    servers: [
      { url: origin, description: 'This service (the address you are using)' },
      ...(production
        ? [
            {
              ...production,
              variables: { base_url: { default: origin } },
            },
          ]
        : []),
      ...others,
    ],
  };
}

/**
 * Swagger UI's own CSP, adjusted for a local HTTP service: "Try it out" calls this origin
 * (connect-src 'self'); requests are not upgraded to https, which a plain-HTTP loopback service
 * cannot answer; and inline styles are allowed, which Swagger UI's response highlighter sets
 * (styles cannot run code; scripts stay 'self' only).
 */
export function apiDocsCsp(header: string): string {
  const directives = header
    .split(';')
    .map((directive) => directive.trim())
    .filter((directive) => directive !== '' && directive !== 'upgrade-insecure-requests')
    .filter((directive) => !directive.startsWith('connect-src'))
    .map((directive) =>
      directive.startsWith('style-src ') && !directive.includes("'unsafe-inline'")
        ? `${directive} 'unsafe-inline'`
        : directive,
    );
  return [...directives, "connect-src 'self'"].join('; ') + ';';
}

/** `GET /api/openapi.json` and a readable reference page (Swagger UI, served locally) at /api/docs. */
export async function registerApiDocs(app: FastifyInstance, routes: RouteDef[]) {
  const document = buildOpenApiDocument(routes);
  app.get('/api/openapi.json', { config: { public: true } }, async (request) =>
    withLiveOrigin(document, liveOriginOf(request)),
  );
  await app.register(fastifySwagger, {
    mode: 'static',
    specification: { document: document as never },
  });
  await app.register(fastifySwaggerUi, {
    routePrefix: API_DOCS_PREFIX,
    staticCSP: true,
    transformStaticCSP: apiDocsCsp,
    transformSpecification: (specification, request) =>
      withLiveOrigin(specification as unknown as OpenApiDocument, liveOriginOf(request)),
  });
}
