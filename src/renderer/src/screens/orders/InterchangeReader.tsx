import { useQuery } from '@tanstack/react-query';
import { useApi } from '../../api/ApiContext';
import { describeError, isApiError } from '../../api/ApiError';
import { ediInboxKeys, fetchInterchange, fetchInterchangeRaw } from '../../api/ediInbox';
import { saveBlob } from '../../components/saveBlob';
import { SegmentsReader } from './SegmentsReader';

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
  const save = async () => {
    const file = await fetchInterchangeRaw(api, interchangeId);
    saveBlob(
      new Blob([file.text], { type: file.contentType }),
      item.file_name ?? `interchange-${item.control_number || item.id}.edi`,
    );
  };
  return <SegmentsReader name={name} text={item.segments.join('\n')} save={save} />;
}
