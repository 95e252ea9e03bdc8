import { Link } from '@tanstack/react-router';
import { useEdiDocumentSummary } from '../api/ediDocuments';
import { attentionCounts } from '../screens/edi/documentNames';

/**
 * The header's counts of retailer documents needing a clerk: one link per list, so each count is
 * exactly what its list shows (the overdue acknowledgments, the failed sends). Nothing shows while
 * nothing needs attention; the live region stays mounted so screen readers hear when something
 * does. The visible words ("2 overdue") begin the spoken name ("2 overdue acknowledgments"), so
 * a clerk who says what they see reaches the link by voice (WCAG 2.5.3, label in name).
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
          <span className="badge-count">{count.n}</span> {count.text}
        </Link>
      ))}
    </div>
  );
}
