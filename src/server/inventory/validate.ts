import {
  localDay,
  parseInventoryAdvice,
  rowProblems,
  type InventoryItem,
} from '../../shared/inventory';
import type { ServiceContext } from '../core/context';
import { invalidRequest } from '../core/errors';
import type { AdviceTargets } from './targets';

/**
 * Field problems first ("Validation failed"), then the rules that need the brand's connections
 * and today ("Inventory advice validation failed"). Nothing is stored or sent when this throws.
 */
export function validateAdvice(
  ctx: ServiceContext,
  targets: AdviceTargets,
  body: unknown,
): InventoryItem[] {
  const parsed = parseInventoryAdvice(body);
  if (!parsed.ok) {
    // The 846 variant of the interface reports field problems as one string.
    const details =
      targets.variant === '846'
        ? parsed.problems.map((p) => `${p.loc.join('.')}: ${p.msg}`).join('; ')
        : parsed.problems;
    throw invalidRequest('Validation failed', { details });
  }
  const problems = rowProblems(parsed.value.items, {
    statusRequiredAtZero: targets.connections.some((c) => c.kind === 'DIRECT_API' && c.enabled),
    today: localDay(ctx.clock.now()),
  });
  if (problems.length > 0)
    throw invalidRequest('Inventory advice validation failed', { errors: problems });
  return parsed.value.items;
}
