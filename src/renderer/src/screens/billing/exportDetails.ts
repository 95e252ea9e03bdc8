import type { InvoiceDetailsPage, InvoiceOrderDetail } from '../../../../shared/billing';

export interface ExportProgress {
  loaded: number;
  total: number;
}

/**
 * Every order detail under the current filters, asked for page by page (the service gives 100 at
 * most per request). Stops at the total the first page announced, or at a short or empty page.
 */
export async function fetchAllOrderDetails(
  fetchPage: (page: number) => Promise<InvoiceDetailsPage>,
  onProgress: (progress: ExportProgress) => void,
): Promise<InvoiceOrderDetail[]> {
  const items: InvoiceOrderDetail[] = [];
  let total = Infinity;
  for (let page = 1; items.length < total; page += 1) {
    const answer = await fetchPage(page);
    if (page === 1) total = answer.total_count;
    items.push(...answer.items);
    onProgress({ loaded: items.length, total: Math.max(total, items.length) });
    if (answer.items.length === 0 || answer.items.length < answer.page_size) break;
  }
  return items;
}

/** "Fetched 200 of 1,234 orders…" */
export function progressText({ loaded, total }: ExportProgress, locale?: string): string {
  return `Fetched ${loaded.toLocaleString(locale)} of ${total.toLocaleString(locale)} orders…`;
}
