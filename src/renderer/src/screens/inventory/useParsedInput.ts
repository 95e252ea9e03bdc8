import { useCallback, useRef, useState } from 'react';
import { readInventoryFile, readPastedRows } from './readInput';
import type { ParsedSheet, SheetResult } from './sheetRows';

export type InputState =
  | { status: 'empty' }
  | { status: 'reading'; source: string }
  | { status: 'error'; source: string; message: string }
  | { status: 'ready'; sheet: ParsedSheet };

/** The rows to send, read from a file or from pasted text; only the latest read counts. */
export function useParsedInput() {
  const [state, setState] = useState<InputState>({ status: 'empty' });
  const latest = useRef(0);

  const run = useCallback(async (source: string, read: () => Promise<SheetResult>) => {
    const serial = ++latest.current;
    setState({ status: 'reading', source });
    const result = await read();
    if (serial !== latest.current) return;
    setState(
      result.ok
        ? { status: 'ready', sheet: result.sheet }
        : { status: 'error', source, message: result.message },
    );
  }, []);

  const readFile = useCallback(
    (file: File) => run(file.name, () => readInventoryFile(file)),
    [run],
  );
  const readText = useCallback(
    (text: string) => run('the pasted rows', () => readPastedRows(text)),
    [run],
  );
  const clear = useCallback(() => {
    latest.current += 1;
    setState({ status: 'empty' });
  }, []);

  return { state, readFile, readText, clear };
}
