import { Link } from '@tanstack/react-router';
import { useEdiDocumentSummary } from '../api/ediDocuments';
import { attentionLabel } from '../screens/edi/documentNames';

/**
 * The header's count of retailer documents needing a clerk (overdue acknowledgments plus failed
 * sends), a link to the overdue view. Nothing shows while nothing needs attention; the live
 * region stays mounted so screen readers hear when something does.
 */
export function DocumentsBadge() {
  const summary = useEdiDocumentSummary().data;
  const count = summary?.needs_attention ?? 0;
  return (
    <div className="documents-badge-region" aria-live="polite">
      {summary && count > 0 ? (
        <Link
          to="/edi/documents"
          search={{ status: 'overdue' }}
          className="sync-badge sync-badge-conflicts"
          aria-label={attentionLabel(summary.counts.overdue, summary.counts.failed)}
          title={attentionLabel(summary.counts.overdue, summary.counts.failed)}
        >
          Documents <span className="badge-count">{count}</span>
        </Link>
      ) : null}
    </div>
  );
}
