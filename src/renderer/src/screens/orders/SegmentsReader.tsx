import { useState } from 'react';
import { describeError } from '../../api/ApiError';

/**
 * The reader a document and an inbound file share: its segments one per line (focusable, so a
 * keyboard can scroll it; a region, as a bare <pre> has no role its label may name), and a
 * download that says so while it runs and says why it failed. `save` fetches the bytes and hands
 * them to the browser.
 */
export function SegmentsReader({
  name,
  text,
  save,
}: {
  name: string;
  text: string;
  save: () => Promise<void>;
}) {
  const [downloading, setDownloading] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const download = async () => {
    setProblem(null);
    setDownloading(true);
    try {
      await save();
    } catch (error) {
      setProblem(`Not downloaded: ${describeError(error)}`);
    } finally {
      setDownloading(false);
    }
  };
  return (
    <div className="document-reader">
      <pre role="region" aria-label={`Content of the ${name}`} tabIndex={0}>
        {text}
      </pre>
      <button
        type="button"
        className="button"
        disabled={downloading}
        onClick={() => void download()}
      >
        {downloading ? 'Downloading…' : 'Download'} <span className="visually-hidden">{name}</span>
      </button>
      {problem ? (
        <p className="field-error" role="alert">
          {problem}
        </p>
      ) : null}
    </div>
  );
}
