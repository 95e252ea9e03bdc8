import { useState } from 'react';
import { useApi } from '../../api/ApiContext';
import { describeError } from '../../api/ApiError';
import { fetchDocumentContent, useOrderDocument } from '../../api/ediDocuments';
import { saveBlob } from '../../components/saveBlob';
import { documentTypeName } from '../edi/documentNames';

/**
 * One document as a clerk reads it (X12 one segment per line), with a download of the bytes sent;
 * the button says so while it downloads. The timeline around it closes it on Escape.
 */
export function DocumentReader({ orderId, documentId }: { orderId: string; documentId: string }) {
  const api = useApi();
  const document = useOrderDocument(orderId, documentId);
  const [problem, setProblem] = useState<string | null>(null);
  const [downloading, setDownloading] = useState(false);

  if (document.isPending) return <p role="status">Loading the document…</p>;
  if (document.isError) {
    return (
      <p className="hint">The document could not be loaded: {describeError(document.error)}</p>
    );
  }
  const detail = document.data;
  const name = documentTypeName(detail.type);
  const download = async () => {
    setProblem(null);
    setDownloading(true);
    try {
      const blob = await fetchDocumentContent(api, orderId, documentId);
      saveBlob(blob, detail.file_name ?? `${detail.type.toLowerCase()}_${detail.id}.edi`);
    } catch (error) {
      setProblem(`Not downloaded: ${describeError(error)}`);
    } finally {
      setDownloading(false);
    }
  };
  return (
    <div className="document-reader">
      {detail.readable === null ? (
        <p className="hint">This document has no content: it could not be built.</p>
      ) : (
        <>
          <pre aria-label={`Content of the ${name}`} tabIndex={0}>
            {detail.readable}
          </pre>
          <button
            type="button"
            className="button"
            disabled={downloading}
            onClick={() => void download()}
          >
            {downloading ? 'Downloading…' : 'Download'}{' '}
            <span className="visually-hidden">{name}</span>
          </button>
        </>
      )}
      {problem ? (
        <p className="field-error" role="alert">
          {problem}
        </p>
      ) : null}
    </div>
  );
}
