import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import { z, type ZodType } from 'zod';
import { APP_VERSION } from '../version';
import type { RouteDef } from './route-def';

export const API_DOCS_PREFIX = '/api/docs';

const jsonSchemaOf = (schema: ZodType) =>
  z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;

/** Path and query parameters, one entry per key of the route's object schemas. */
function parametersOf(def: RouteDef) {
  const parameters: Record<string, unknown>[] = [];
  for (const [where, schema] of [
    ['path', def.params],
    ['query', def.query],
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
    const path = def.url.replace(/:([A-Za-z_]+)/g, '{$1}');
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
      ...(def.body
        ? {
            requestBody: {
              required: true,
              content: { 'application/json': { schema: jsonSchemaOf(def.body) } },
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

/** `GET /api/openapi.json` and a readable reference page (Swagger UI, served locally) at /api/docs. */
export async function registerApiDocs(app: FastifyInstance, routes: RouteDef[]) {
  const document = buildOpenApiDocument(routes);
  app.get('/api/openapi.json', { config: { public: true } }, async () => document);
  await app.register(fastifySwagger, {
    mode: 'static',
    specification: { document: document as never },
  });
  await app.register(fastifySwaggerUi, { routePrefix: API_DOCS_PREFIX, staticCSP: true });
}
