import { useState } from 'react';
import type { ClaimsImportKind } from '../../api/claims';
import { ImportCsvPanel } from './ImportCsvPanel';

/**
 * A claims screen's header: its title (`#screen-title`, which the screen is labelled by) and an
 * Import CSV button that opens and closes the import panel under it.
 */
export function ImportCsvHeader({
  title,
  kind,
  panelTitle,
}: {
  title: string;
  kind: ClaimsImportKind;
  /** e.g. `Import chargebacks from a CSV file`. */
  panelTitle: string;
}) {
  const [open, setOpen] = useState(false);
  const panelId = `${kind}-import`;
  return (
    <>
      <div className="screen-header">
        <h1 id="screen-title" tabIndex={-1}>
          {title}
        </h1>
        <button
          type="button"
          className="button primary"
          aria-expanded={open}
          aria-controls={panelId}
          onClick={() => setOpen((was) => !was)}
        >
          Import CSV
        </button>
      </div>
      {open ? (
        <section id={panelId} className="panel" aria-labelledby={`${panelId}-h`}>
          <h2 id={`${panelId}-h`}>{panelTitle}</h2>
          <ImportCsvPanel kind={kind} />
        </section>
      ) : null}
    </>
  );
}
