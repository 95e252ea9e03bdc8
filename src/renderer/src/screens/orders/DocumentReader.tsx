import { useApi } from '../../api/ApiContext';
import { describeError } from '../../api/ApiError';
import { fetchDocumentContent, useOrderDocument } from '../../api/ediDocuments';
import { saveBlob } from '../../components/saveBlob';
import { documentTypeName } from '../edi/documentNames';
import { SegmentsReader } from './SegmentsReader';

/**
 * One document as a clerk reads it (X12 one segment per line), with a download of the bytes sent;
 * the button says so while it downloads. The timeline around it closes it on Escape.
 */
export function DocumentReader({ orderId, documentId }: { orderId: string; documentId: string }) {
  const api = useApi();
  const document = useOrderDocument(orderId, documentId);

  if (document.isPending) return <p role="status">Loading the document…</p>;
  if (document.isError) {
    return (
      <p className="hint">The document could not be loaded: {describeError(document.error)}</p>
    );
  }
  const detail = document.data;
  if (detail.readable === null) {
    return (
      <div className="document-reader">
        <p className="hint">This document has no content: it could not be built.</p>
      </div>
    );
  }
  const save = async () => {
    const blob = await fetchDocumentContent(api, orderId, documentId);
    saveBlob(blob, detail.file_name ?? `${detail.type.toLowerCase()}_${detail.id}.edi`);
  };
  return <SegmentsReader name={documentTypeName(detail.type)} text={detail.readable} save={save} />;
}
