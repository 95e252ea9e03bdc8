import type { OrderDocumentView } from '../../../../shared/order-documents';
import { statusName } from '../edi/documentNames';

/**
 * What the panel says after POST …/acknowledge: the service's message (sent, queued or failed,
 * per connection) and each 855's status as stored, so "sent" appears only once the transport
 * took it.
 */
export function acknowledgeOutcome(message: string, documents: OrderDocumentView[]): string {
  const statuses = documents.map(
    (document) =>
      `${document.retailer_name ?? 'retailer'}: ${statusName(document.status)}${
        document.error ? ` (${document.error})` : ''
      }`,
  );
  const said = message.replace(/\.$/, '');
  return statuses.length > 0 ? `${said}. ${statuses.join('; ')}.` : message;
}
