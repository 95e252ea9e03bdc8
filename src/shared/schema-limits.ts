import type { z } from 'zod';

/** The parts of a zod schema's definition this walk reads. */
interface Def {
  type: string;
  innerType?: z.ZodType;
  in?: z.ZodType;
  element?: z.ZodType;
  shape?: Record<string, z.ZodType>;
}

/** The schema under optional, nullable, default and transform wrappers. */
function unwrap(schema: z.ZodType): z.ZodType {
  let current = schema;
  for (;;) {
    const def = current.def as unknown as Def;
    const inner =
      def.type === 'pipe'
        ? def.in
        : ['optional', 'nullable', 'default', 'prefault', 'catch', 'readonly'].includes(def.type)
          ? def.innerType
          : undefined;
    if (!inner) return current;
    current = inner;
  }
}

/**
 * The longest text the schema accepts at `path` (dotted; array indexes allowed, e.g.
 * `items.0.sku`), or undefined when that is no bounded string. Form inputs take their
 * `maxLength` from here, so the form and the service's schema cannot drift apart.
 */
export function maxLengthAt(schema: z.ZodType, path: string): number | undefined {
  let current = unwrap(schema);
  for (const key of path.split('.')) {
    const def = current.def as unknown as Def;
    const next =
      def.type === 'object'
        ? def.shape?.[key]
        : def.type === 'array' && /^\d+$/.test(key)
          ? def.element
          : undefined;
    if (!next) return undefined;
    current = unwrap(next);
  }
  const { maxLength } = current as { maxLength?: number | null };
  return typeof maxLength === 'number' ? maxLength : undefined;
}
