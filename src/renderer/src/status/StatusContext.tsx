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

/** Says `message` in the live region; returns its serial (for `withdraw`). */
type Announce = (message: string) => number;

interface Status {
  announce: Announce;
  /** Empties the region if it still holds the message with this serial (a later one stays). */
  withdraw: (serial: number) => void;
}

const StatusContext = createContext<Status | null>(null);

/**
 * One polite live region for the whole app. It is rendered before anything is announced
 * (screen readers ignore regions that appear together with their text).
 */
export function StatusProvider({ children }: { children: ReactNode }) {
  const [message, setMessage] = useState({ text: '', serial: 0 });
  const lastSerial = useRef(0);
  const announce = useCallback<Announce>((text) => {
    lastSerial.current += 1;
    const serial = lastSerial.current;
    setMessage({ text, serial });
    return serial;
  }, []);
  const withdraw = useCallback((serial: number) => {
    setMessage((current) => (current.serial === serial ? { ...current, text: '' } : current));
  }, []);
  const status = useMemo(() => ({ announce, withdraw }), [announce, withdraw]);
  return (
    <StatusContext.Provider value={status}>
      {children}
      <div className="visually-hidden" role="status" aria-live="polite" aria-atomic="true">
        {/* The key re-creates the text node so an identical message is announced again. */}
        <span key={message.serial}>{message.text}</span>
      </div>
    </StatusContext.Provider>
  );
}

function useStatus(): Status {
  const status = useContext(StatusContext);
  if (!status) throw new Error('useAnnounce must be used inside <StatusProvider>.');
  return status;
}

/** For outcomes a clerk should hear even on the next screen ("Order created." before moving on). */
export function useAnnounce(): Announce {
  return useStatus().announce;
}

/**
 * For what describes the current screen ("Loaded 3 facilities."): withdrawn when the screen goes,
 * so it does not linger in the status region on other screens; a later message stays.
 */
export function useScreenAnnounce(): (message: string) => void {
  const { announce, withdraw } = useStatus();
  const last = useRef<number | null>(null);
  useEffect(
    () => () => {
      if (last.current !== null) withdraw(last.current);
    },
    [withdraw],
  );
  return useCallback(
    (message: string) => {
      last.current = announce(message);
    },
    [announce],
  );
}
