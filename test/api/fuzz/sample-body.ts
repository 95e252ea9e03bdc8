/**
 * A plausible body for a route, made from its OpenAPI (JSON Schema) request schema: every
 * property filled with the simplest value its type, format, pattern, enum and bounds allow, ids
 * from the demo workspace by name. Not always valid (cross-field rules and refinements the schema
 * cannot show are not followed), but valid often enough that a fuzzed field reaches the route's
 * rules and queries, not only the "is required" of its siblings.
 */
export interface JsonSchema {
  type?: string | string[];
  format?: string;
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  minItems?: number;
  minLength?: number;
  pattern?: string;
  maxLength?: number;
  minimum?: number;
  exclusiveMinimum?: number;
  maximum?: number;
  default?: unknown;
}

export function sampleOf(
  schema: JsonSchema | undefined,
  ids: Record<string, string>,
  name = '',
  depth = 0,
): unknown {
  if (!schema || depth > 6) return null;
  if ('const' in schema) return schema.const;
  if (schema.enum?.length) return schema.enum[0];
  const options = schema.anyOf ?? schema.oneOf;
  if (options?.length) {
    // The richest option: a typed one with a format or pattern before a blank or a null.
    const typed = options.filter((o) => o.type !== 'null' && !('const' in o) && o.maxLength !== 0);
    const option = typed.find((o) => o.format || o.pattern) ?? typed[0] ?? options[0];
    return sampleOf(option, ids, name, depth + 1);
  }
  if (schema.allOf?.length) return sampleOf(schema.allOf[0], ids, name, depth + 1);
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  const type = types.find((t) => t && t !== 'null');
  switch (type) {
    case 'object': {
      const body: Record<string, unknown> = {};
      for (const [key, property] of Object.entries(schema.properties ?? {})) {
        body[key] = sampleOf(property, ids, key, depth + 1);
      }
      return body;
    }
    case 'array':
      return Array.from({ length: Math.max(1, schema.minItems ?? 1) }, () =>
        sampleOf(schema.items, ids, name, depth + 1),
      );
    case 'integer':
    case 'number': {
      if (/port$/.test(name)) return 9100;
      if (schema.exclusiveMinimum !== undefined) return schema.exclusiveMinimum + 1;
      return schema.minimum ?? 1;
    }
    case 'boolean':
      return true;
    case 'string':
      return stringOf(schema, ids, name);
    default:
      return schema.default ?? null;
  }
}

function stringOf(schema: JsonSchema, ids: Record<string, string>, name: string): string {
  switch (schema.format) {
    case 'uuid':
      return ids[name] ?? ids.any!;
    case 'date-time':
      return new Date().toISOString();
    case 'date':
      return new Date().toISOString().slice(0, 10);
    case 'email':
      return 'fuzz@example.com';
    case 'uri':
    case 'url':
      return 'http://127.0.0.1:9/fuzz';
    default: {
      const today = new Date().toISOString().slice(0, 10);
      const hinted = [
        ...(/email/.test(name) ? ['fuzz@example.com'] : []),
        ...(/(date|_by)$/.test(name) ? [today, `${today} 10:00:00`] : []),
      ];
      const candidates = [...hinted, today, `${today} 10:00:00`, '0614141', '1', 'ABC', 'A1'];
      if (schema.pattern) {
        const pattern = new RegExp(schema.pattern, 'u');
        const fit = candidates.find((candidate) => pattern.test(candidate));
        if (fit) return fit;
      } else if (hinted[0]) {
        return hinted[0];
      }
      const text = `FUZZ-${name || 'text'}`;
      const min = schema.minLength ?? 1;
      const max = schema.maxLength ?? 64;
      return text.padEnd(min, 'x').slice(0, Math.max(min, Math.min(max, text.length)));
    }
  }
}

/** Paths of the leaves (and of arrays and objects) of a sampled body, e.g. `items.0.quantity`. */
export function leafPaths(value: unknown, prefix: (string | number)[] = []): (string | number)[][] {
  if (Array.isArray(value)) {
    return [prefix, ...value.slice(0, 1).flatMap((item, i) => leafPaths(item, [...prefix, i]))];
  }
  if (value && typeof value === 'object') {
    const inner = Object.entries(value).flatMap(([key, item]) => leafPaths(item, [...prefix, key]));
    return prefix.length ? [prefix, ...inner] : inner;
  }
  return [prefix];
}

/** A deep copy of `body` with the value at `path` replaced. */
export function withValueAt(body: unknown, path: (string | number)[], value: unknown): unknown {
  if (path.length === 0) return value;
  const [head, ...rest] = path;
  const copy = (Array.isArray(body) ? [...body] : { ...(body as object) }) as Record<
    string | number,
    unknown
  >;
  copy[head!] = withValueAt(copy[head!], rest, value);
  return copy;
}
