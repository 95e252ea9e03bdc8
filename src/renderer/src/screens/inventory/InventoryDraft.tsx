import {
  createContext,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useRef,
  useState,
  type ReactNode,
} from 'react';
import type { ParsedSheet } from './sheetRows';

export type InputState =
  | { status: 'empty' }
  | { status: 'reading'; source: string }
  | { status: 'error'; source: string; message: string }
  | { status: 'ready'; sheet: ParsedSheet };

export interface InventoryDraft {
  input: InputState;
  setInput: (next: InputState) => void;
  /** Counts reads so only the latest one lands (see useParsedInput). */
  readSerial: { current: number };
  /** The rows were handed to the service (sent, even if some deliveries failed: they are kept). */
  markSent: (sheet: ParsedSheet) => void;
  /** Rows loaded but not sent yet: the work a sign-out or a reload would throw away. */
  unsentRowCount: number;
}

const DraftContext = createContext<InventoryDraft | null>(null);

/** Rows loaded but not sent, or 0. */
export function unsentRows(input: InputState, sent: ParsedSheet | null): number {
  return input.status === 'ready' && input.sheet !== sent ? input.sheet.items.length : 0;
}

/** The question asked before work is thrown away. */
export function discardQuestion(rows: number, action: string): string {
  return `${rows} loaded ${rows === 1 ? 'row has' : 'rows have'} not been sent. ${action} and discard ${rows === 1 ? 'it' : 'them'}?`;
}

/**
 * The Inventory screen's loaded rows, held above the router so moving to another screen and back
 * keeps them for the rest of the session (sign-out drops them). A reload or closing the window
 * with unsent rows asks first (`beforeunload`).
 */
export function InventoryDraftProvider({ children }: { children: ReactNode }) {
  const [input, setInput] = useState<InputState>({ status: 'empty' });
  const [sent, setSent] = useState<ParsedSheet | null>(null);
  const readSerial = useRef(0);
  const unsentRowCount = unsentRows(input, sent);

  useEffect(() => {
    if (unsentRowCount === 0) return;
    const ask = (event: BeforeUnloadEvent) => {
      event.preventDefault();
      // Older Chromium (and Electron) still read returnValue.
      event.returnValue = '';
    };
    window.addEventListener('beforeunload', ask);
    return () => window.removeEventListener('beforeunload', ask);
  }, [unsentRowCount]);

  const markSent = useCallback((sheet: ParsedSheet) => setSent(sheet), []);
  const value = useMemo(
    () => ({ input, setInput, readSerial, markSent, unsentRowCount }),
    [input, markSent, unsentRowCount],
  );
  return <DraftContext.Provider value={value}>{children}</DraftContext.Provider>;
}

export function useInventoryDraft(): InventoryDraft {
  const draft = useContext(DraftContext);
  if (!draft) throw new Error('useInventoryDraft must be used inside <InventoryDraftProvider>.');
  return draft;
}
