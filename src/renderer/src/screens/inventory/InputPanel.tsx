import { useId, useState, type DragEvent } from 'react';
import { ACCEPTED_FILES } from './readInput';

interface InputPanelProps {
  onFile: (file: File) => void;
  onText: (text: string) => void;
  disabled: boolean;
}

/** A drop zone with a file picker, and a box to paste CSV or TSV rows into. */
export function InputPanel({ onFile, onText, disabled }: InputPanelProps) {
  const [dragging, setDragging] = useState(false);
  const [pasted, setPasted] = useState('');
  const hintId = useId();
  const pasteHintId = useId();

  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    setDragging(false);
    const file = event.dataTransfer.files[0];
    if (file && !disabled) onFile(file);
  };

  return (
    <div className="input-panel">
      <div
        className={`drop-zone${dragging ? ' dragging' : ''}`}
        onDragEnter={(event) => {
          event.preventDefault();
          setDragging(true);
        }}
        onDragOver={(event) => event.preventDefault()}
        onDragLeave={() => setDragging(false)}
        onDrop={onDrop}
      >
        <label htmlFor="inventory-file">Inventory file</label>
        <p id={hintId} className="hint">
          Drop a .csv or .xlsx file here, or choose one. The first row names the columns.
        </p>
        <input
          id="inventory-file"
          type="file"
          accept={ACCEPTED_FILES}
          aria-describedby={hintId}
          disabled={disabled}
          onChange={(event) => {
            const file = event.target.files?.[0];
            if (file) onFile(file);
            // Choosing the same file again (after fixing it) must still fire a change.
            event.target.value = '';
          }}
        />
      </div>
      <form
        className="paste-form"
        onSubmit={(event) => {
          event.preventDefault();
          if (!disabled) onText(pasted);
        }}
      >
        <div className="field">
          <label htmlFor="inventory-paste">Paste rows</label>
          <p id={pasteHintId} className="hint">
            CSV or tab-separated rows, e.g. copied from a spreadsheet, with the header row first.
          </p>
          <textarea
            id="inventory-paste"
            rows={5}
            value={pasted}
            aria-describedby={pasteHintId}
            spellCheck={false}
            onChange={(event) => setPasted(event.target.value)}
            onKeyDown={(event) => {
              if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
                event.preventDefault();
                if (!disabled) onText(pasted);
              }
            }}
          />
        </div>
        <button type="submit" className="button" disabled={disabled}>
          Use pasted rows
        </button>
      </form>
    </div>
  );
}
