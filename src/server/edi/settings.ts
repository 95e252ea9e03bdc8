import {
  orderDocumentSettingsSchema,
  type OrderDocumentSettings,
} from '../../shared/order-documents';

/**
 * A connection's stored `order_documents` settings; null when absent or unreadable (the seed
 * checked them on the way in, so unreadable means a hand-edited database: send nothing).
 */
export function orderDocumentSettingsOf(json: string | null): OrderDocumentSettings | null {
  if (json === null) return null;
  try {
    const parsed = orderDocumentSettingsSchema.safeParse(JSON.parse(json));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}
