import { Link } from '@tanstack/react-router';
import { useEdiDocumentSummary } from '../api/ediDocuments';
import { attentionCounts } from '../screens/edi/documentNames';

/**
 * The header's counts of retailer documents needing a clerk: one link per list, so each count is
 * exactly what its list shows (the overdue acknowledgments, the failed sends). Nothing shows while
 * nothing needs attention; the live region stays mounted so screen readers hear when something
 * does.
 */
export function DocumentsBadge() {
  const summary = useEdiDocumentSummary().data;
  const counts = summary ? attentionCounts(summary.counts.overdue, summary.counts.failed) : [];
  return (
    <div className="documents-badge-region" aria-live="polite">
      {counts.map((count) => (
        <Link
          key={count.status}
          to="/edi/documents"
          search={{ status: count.status }}
          className="sync-badge sync-badge-conflicts"
          aria-label={count.label}
          title={count.label}
        >
          {count.text} <span className="badge-count">{count.n}</span>
        </Link>
      ))}
    </div>
  );
}
