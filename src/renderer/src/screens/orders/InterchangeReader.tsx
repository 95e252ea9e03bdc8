import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useApi } from '../../api/ApiContext';
import { describeError, isApiError } from '../../api/ApiError';
import { ediInboxKeys, fetchInterchange, fetchInterchangeRaw } from '../../api/ediInbox';
import { saveBlob } from '../../components/saveBlob';

/**
 * An inbound purchase order (850) or change (860) as it came in: the whole file it arrived in,
 * one segment per line, with a download of the bytes received. Inbound files are an admin's
 * (the EDI inbox's rule): anyone else is told so instead of a bare "not found".
 */
export function InterchangeReader({
  interchangeId,
  name,
}: {
  interchangeId: string;
  name: string;
}) {
  const api = useApi();
  const query = useQuery({
    queryKey: ediInboxKeys.one(interchangeId),
    queryFn: ({ signal }) => fetchInterchange(api, interchangeId, signal),
    retry: false,
  });
  const [downloading, setDownloading] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);

  if (query.isPending) return <p role="status">Loading the file…</p>;
  if (query.isError) {
    return (
      <p className="hint">
        {isApiError(query.error) && query.error.status === 404
          ? 'The file this came in is shown to admins of the brand only (in the EDI inbox).'
          : `The file could not be loaded: ${describeError(query.error)}`}
      </p>
    );
  }
  const item = query.data;
  const download = async () => {
    setProblem(null);
    setDownloading(true);
    try {
      const file = await fetchInterchangeRaw(api, interchangeId);
      saveBlob(
        new Blob([file.text], { type: file.contentType }),
        item.file_name ?? `interchange-${item.control_number || item.id}.edi`,
      );
    } catch (error) {
      setProblem(`Not downloaded: ${describeError(error)}`);
    } finally {
      setDownloading(false);
    }
  };
  return (
    <div className="document-reader">
      <pre aria-label={`Content of the ${name}`} tabIndex={0}>
        {item.segments.join('\n')}
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
