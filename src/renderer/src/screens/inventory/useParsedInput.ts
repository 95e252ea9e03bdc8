import { useCallback } from 'react';
import { useInventoryDraft, type InputState } from './InventoryDraft';
import { readInventoryFile, readPastedRows } from './readInput';
import type { SheetResult } from './sheetRows';

export type { InputState };

/**
 * The rows to send, read from a file or from pasted text; only the latest read counts. They live
 * in the session's draft (InventoryDraft), so they outlast a visit to another screen.
 */
export function useParsedInput() {
  const { input: state, setInput, readSerial } = useInventoryDraft();

  const run = useCallback(
    async (source: string, read: () => Promise<SheetResult>) => {
      const serial = ++readSerial.current;
      setInput({ status: 'reading', source });
      const result = await read();
      if (serial !== readSerial.current) return;
      setInput(
        result.ok
          ? { status: 'ready', sheet: result.sheet }
          : { status: 'error', source, message: result.message },
      );
    },
    [readSerial, setInput],
  );

  const readFile = useCallback(
    (file: File) => run(file.name, () => readInventoryFile(file)),
    [run],
  );
  const readText = useCallback(
    (text: string) => run('the pasted rows', () => readPastedRows(text)),
    [run],
  );
  const clear = useCallback(() => {
    readSerial.current += 1;
    setInput({ status: 'empty' });
  }, [readSerial, setInput]);

  return { state, readFile, readText, clear };
}
