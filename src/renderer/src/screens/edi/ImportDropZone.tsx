import { useQueryClient } from '@tanstack/react-query';
import { useId, useRef, useState, type DragEvent } from 'react';
import { useApi } from '../../api/ApiContext';
import {
  ediInboxKeys,
  fetchInterchange,
  importInterchange,
  refusedInterchangeId,
} from '../../api/ediInbox';
import { invalidateOrders } from '../../api/orderKeys';
import { plural } from '../../format/plural';
import { importRefusalWords } from './importRefusalWords';
import { importProgress, importRefusal, importResult, IMPORT_EXTENSIONS } from './inboxFormat';

interface FileResult {
  key: string;
  name: string;
  state: 'working' | 'done' | 'refused';
  text: string;
}

/**
 * "Import purchase orders": .edi/.x12/.txt files dropped here or chosen with the labelled file
 * input go one by one to POST /api/v1/edi/inbound (the path a partner's post takes); each file's
 * line says what it did, and a status line how far the batch is. Other extensions are refused
 * next to the field, before any upload.
 */
export function ImportDropZone() {
  const api = useApi();
  const queryClient = useQueryClient();
  const inputId = useId();
  const [results, setResults] = useState<FileResult[]>([]);
  const [refusals, setRefusals] = useState<string[]>([]);
  const [dragging, setDragging] = useState(false);
  // Files one at a time: how far the batch is, then what it came to (a live region, mounted).
  const [progress, setProgress] = useState<{ done: number; total: number; refused: number } | null>(
    null,
  );

  // One batch at a time, so its progress is its own: files chosen or dropped meanwhile are turned
  // away with the reason. (The input stays enabled: disabling it would drop the keyboard focus.)
  const importing = useRef(false);

  const update = (key: string, change: Partial<FileResult>) =>
    setResults((list) => list.map((r) => (r.key === key ? { ...r, ...change } : r)));

  const importFiles = async (files: File[]) => {
    if (importing.current) {
      setRefusals([
        `${plural(files.length, 'file')} not imported: wait until the files being imported are done, then add ${files.length === 1 ? 'it' : 'them'} again.`,
      ]);
      return;
    }
    const refused = files.flatMap((file) => importRefusal(file.name) ?? []);
    setRefusals(refused);
    const taken = files.filter((file) => importRefusal(file.name) === null);
    const batch = taken.map((file, index) => ({
      key: `${Date.now()}-${index}-${file.name}`,
      name: file.name,
      state: 'working' as const,
      text: 'Importing…',
    }));
    setResults((list) => [...batch, ...list]);
    let failed = 0;
    setProgress(taken.length > 0 ? { done: 0, total: taken.length, refused: 0 } : null);
    importing.current = taken.length > 0;
    for (const [index, file] of taken.entries()) {
      const key = batch[index]!.key;
      try {
        const answer = await importInterchange(api, await file.text());
        update(key, { state: 'done', text: importResult(answer.summary) });
      } catch (error) {
        failed += 1;
        update(key, { state: 'refused', text: `Refused: ${await refusalReason(error)}` });
      }
      setProgress({ done: index + 1, total: taken.length, refused: failed });
    }
    importing.current = false;
    if (taken.length > 0) {
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: ediInboxKeys.all }),
        invalidateOrders(queryClient),
      ]).catch(() => undefined);
    }
  };

  // Why a file was refused, in the inbox's clerk words where the refusal was recorded.
  const refusalReason = async (error: unknown): Promise<string> => {
    const id = refusedInterchangeId(error);
    const reason = id
      ? await fetchInterchange(api, id).then(
          (item) => item.reason,
          () => null,
        )
      : null;
    return reason ? `${reason.split('\n').join('; ')}.` : importRefusalWords(error);
  };

  const onDrop = (event: DragEvent<HTMLDivElement>) => {
    event.preventDefault();
    setDragging(false);
    void importFiles([...event.dataTransfer.files]);
  };

  return (
    <section className="panel edi-import" aria-labelledby="edi-import-heading">
      <h2 id="edi-import-heading">Import purchase orders</h2>
      <div
        className={`drop-zone${dragging ? ' dragging' : ''}`}
        data-testid="edi-drop-zone"
        onDragOver={(event) => {
          event.preventDefault();
          setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={onDrop}
      >
        <p>Drop X12 files here ({IMPORT_EXTENSIONS.join(', ')}), or choose them:</p>
        <div className="field">
          <label htmlFor={inputId}>X12 files to import</label>
          <input
            id={inputId}
            type="file"
            multiple
            accept={IMPORT_EXTENSIONS.join(',')}
            aria-describedby={refusals.length > 0 ? `${inputId}-refused` : undefined}
            onChange={(event) => {
              const files = [...(event.target.files ?? [])];
              event.target.value = '';
              void importFiles(files);
            }}
          />
          {refusals.length > 0 && (
            // The alert wraps the list: a role on the <ul> itself would unmake it a list.
            <div id={`${inputId}-refused`} className="field-error" role="alert">
              <ul>
                {refusals.map((text) => (
                  <li key={text}>{text}</li>
                ))}
              </ul>
            </div>
          )}
        </div>
      </div>
      <p className="hint" role="status">
        {progress ? importProgress(progress.done, progress.total, progress.refused) : null}
      </p>
      {progress && progress.done < progress.total ? (
        <progress value={progress.done} max={progress.total} aria-label="Import progress" />
      ) : null}
      {results.length > 0 && (
        <ul className="import-results" aria-label="Imported files" aria-live="polite">
          {results.map((result) => (
            <li key={result.key} className={`import-${result.state}`}>
              <strong>{result.name}</strong>: {result.text}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
