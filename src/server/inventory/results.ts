import type { BrandConnection } from './queries';
import type { ResultVariant } from './targets';

/** One element of `data.results`, in either variant of the interface's result shape. */
export type AdviceResult = Record<string, unknown> & { success: boolean; error: string | null };

export interface AdviceSummary {
  total: number;
  succeeded: number;
  failed: number;
}

export type AdviceOutcome = 'all_succeeded' | 'partial' | 'all_failed';

export interface ResultInput {
  deliveryId: string;
  connection: BrandConnection | null;
  brandName: string;
  success: boolean;
  error: string | null;
}

/** `delivery_id` is ours (see docs/decisions.md): it opens the stored document and the retry. */
export function resultOf(variant: ResultVariant, input: ResultInput): AdviceResult {
  const { connection } = input;
  const common = {
    retailer_id: connection?.retailer_id ?? null,
    retailer_name: connection?.retailer_name ?? null,
    brand_name: input.brandName,
    organization_name: connection?.organization_name ?? null,
    success: input.success,
    error: input.success ? null : input.error,
    failed_skus: null,
    delivery_id: input.deliveryId,
  };
  if (variant === '846') {
    return {
      edi_config_id: connection?.id ?? null,
      ...common,
      edi_transaction_id: input.success ? input.deliveryId : null,
    };
  }
  return { organization_id: connection?.organization_id ?? null, ...common };
}

export function summarise(results: AdviceResult[]): AdviceSummary {
  const succeeded = results.filter((r) => r.success).length;
  return { total: results.length, succeeded, failed: results.length - succeeded };
}

export function outcomeOf(summary: AdviceSummary): AdviceOutcome {
  if (summary.failed === 0) return 'all_succeeded';
  return summary.succeeded > 0 ? 'partial' : 'all_failed';
}

/** The interface's messages, per variant. */
export function messageOf(variant: ResultVariant, summary: AdviceSummary): string {
  const prefix = variant === '846' ? '846 inventory advice' : 'Inventory advice';
  switch (outcomeOf(summary)) {
    case 'all_succeeded':
      return `${prefix} sent successfully`;
    case 'partial':
      return `${prefix} partially completed: ${summary.succeeded} succeeded, ${summary.failed} failed`;
    case 'all_failed':
      return variant === '846'
        ? '846 inventory advice failed for all configs'
        : 'Inventory advice failed for all connections';
  }
}

export function noEnabledConnectionMessage(variant: ResultVariant): string {
  return variant === '846'
    ? 'No EDI configuration with 846 inventory advice is enabled for this brand and facility'
    : 'No inventory advice connection is enabled for this brand';
}
