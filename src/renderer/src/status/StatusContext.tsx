import { createContext, useCallback, useContext, useState, type ReactNode } from 'react';

type Announce = (message: string) => void;

const StatusContext = createContext<Announce | null>(null);

/**
 * One polite live region for the whole app. It is rendered before anything is announced
 * (screen readers ignore regions that appear together with their text).
 */
export function StatusProvider({ children }: { children: ReactNode }) {
  const [message, setMessage] = useState({ text: '', serial: 0 });
  const announce = useCallback<Announce>((text) => {
    setMessage((previous) => ({ text, serial: previous.serial + 1 }));
  }, []);
  return (
    <StatusContext.Provider value={announce}>
      {children}
      <div className="visually-hidden" role="status" aria-live="polite" aria-atomic="true">
        {/* The key re-creates the text node so an identical message is announced again. */}
        <span key={message.serial}>{message.text}</span>
      </div>
    </StatusContext.Provider>
  );
}

export function useAnnounce(): Announce {
  const announce = useContext(StatusContext);
  if (!announce) throw new Error('useAnnounce must be used inside <StatusProvider>.');
  return announce;
}
