import { useCallback, useRef, useState } from 'react';
import { useApi } from '../../api/ApiContext';
import type { AdvicePreview, AdviceScope } from '../../api/inventory';
import { fetchLastDelivered } from '../../api/inventory';
import { sameRows, sendRisks, type SendRisk } from './sendGuard';
import type { RowInput } from './sheetRows';

/** Why a send waits for the clerk's yes. */
export interface SendConfirmation {
  risks: SendRisk[];
  /** When these exact rows were last delivered for this scope, if they were. */
  identicalTo: { createdAt: string; itemCount: number } | null;
}

export type GuardState =
  { status: 'idle' } | { status: 'checking' } | { status: 'confirming'; confirm: SendConfirmation };

interface GuardOptions {
  scope: AdviceScope | null;
  items: readonly RowInput[] | null;
  /** Runs a preview, shows it, and gives it back (null when the service refused it). */
  preview: () => Promise<AdvicePreview | null>;
  send: () => Promise<void>;
}

/**
 * Send, guarded: it previews first; when SKUs would vanish or go to 0 somewhere, or the rows are
 * exactly those last delivered for this brand and facility, it asks before sending.
 */
export function useSendGuard({ scope, items, preview, send }: GuardOptions) {
  const api = useApi();
  const [state, setState] = useState<GuardState>({ status: 'idle' });
  const running = useRef(false);

  const guardedSend = useCallback(async () => {
    if (!scope || !items || running.current) return;
    running.current = true;
    setState({ status: 'checking' });
    try {
      // The history is only a warning: if it cannot be read, the send is not stopped by it.
      const [result, lastDelivered] = await Promise.all([
        preview(),
        fetchLastDelivered(api, scope).catch(() => null),
      ]);
      if (!result) {
        setState({ status: 'idle' });
        return;
      }
      const risks = sendRisks(result);
      const identicalTo =
        lastDelivered && sameRows(items, lastDelivered.items)
          ? { createdAt: lastDelivered.created_at, itemCount: lastDelivered.item_count }
          : null;
      if (risks.length > 0 || identicalTo) {
        setState({ status: 'confirming', confirm: { risks, identicalTo } });
        return;
      }
      setState({ status: 'idle' });
      await send();
    } finally {
      running.current = false;
    }
  }, [api, scope, items, preview, send]);

  const confirm = useCallback(() => {
    setState({ status: 'idle' });
    void send();
  }, [send]);
  const cancel = useCallback(() => setState({ status: 'idle' }), []);

  // Another file or scope makes an open question moot.
  const [owner, setOwner] = useState({ scope, items });
  if (owner.scope !== scope || owner.items !== items) {
    setOwner({ scope, items });
    if (state.status === 'confirming') setState({ status: 'idle' });
  }

  return { state, send: guardedSend, confirm, cancel };
}
