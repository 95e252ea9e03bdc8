import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useApi } from '../../api/ApiContext';
import { invalidateDeliveryState } from './inventoryQueries';
import {
  previewAdvice,
  sendAdvice,
  type AdviceOutcome,
  type AdvicePreview,
  type AdviceScope,
} from '../../api/inventory';
import { useAnnounce } from '../../status/StatusContext';
import { serverIssuesOf, type ServerIssues } from './serverProblems';
import type { RowInput } from './sheetRows';

export type PreviewState =
  { status: 'idle' } | { status: 'loading' } | { status: 'ready'; preview: AdvicePreview };

export type SendState =
  { status: 'idle' } | { status: 'sending' } | { status: 'done'; outcome: AdviceOutcome };

export interface AdviceActionState {
  preview: PreviewState;
  send: SendState;
  /** The service refused the last Preview or Send (message, and 400 problems per cell). */
  issues: ServerIssues | null;
}

interface Stored extends AdviceActionState {
  /** The scope and rows the state belongs to; other rows or another scope start afresh. */
  scope: AdviceScope | null;
  items: readonly RowInput[] | null;
}

const IDLE: AdviceActionState = {
  preview: { status: 'idle' },
  send: { status: 'idle' },
  issues: null,
};

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** Preview and Send for the current rows and scope. */
export function useAdviceActions(scope: AdviceScope | null, items: readonly RowInput[] | null) {
  const api = useApi();
  const queryClient = useQueryClient();
  const announce = useAnnounce();
  const [stored, setStored] = useState<Stored>({ ...IDLE, scope: null, items: null });
  const previewRequest = useRef<AbortController | null>(null);

  useEffect(() => () => previewRequest.current?.abort(), []);

  const matches = stored.scope === scope && stored.items === items;
  const state: AdviceActionState = matches ? stored : IDLE;
  const busy = state.preview.status === 'loading' || state.send.status === 'sending';

  /** Runs a preview and shows it; also gives it back (null when refused or superseded). */
  const preview = useCallback(async (): Promise<AdvicePreview | null> => {
    if (!scope || !items) return null;
    previewRequest.current?.abort();
    const controller = new AbortController();
    previewRequest.current = controller;
    const update = (next: Partial<AdviceActionState>) =>
      setStored((previous) =>
        previous.scope === scope && previous.items === items ? { ...previous, ...next } : previous,
      );
    setStored({ ...IDLE, scope, items, preview: { status: 'loading' } });
    try {
      const result = await previewAdvice(api, scope, [...items], controller.signal);
      if (controller.signal.aborted) return null;
      update({ preview: { status: 'ready', preview: result } });
      announce(`Preview ready for ${plural(result.connections.length, 'connection')}.`);
      return result;
    } catch (error) {
      if (controller.signal.aborted) return null;
      update({ preview: { status: 'idle' }, issues: serverIssuesOf(error) });
      return null;
    }
  }, [api, announce, scope, items]);

  const send = useCallback(async () => {
    if (!scope || !items) return;
    previewRequest.current?.abort();
    const update = (next: (previous: Stored) => Partial<AdviceActionState>) =>
      setStored((previous) =>
        previous.scope === scope && previous.items === items
          ? { ...previous, ...next(previous) }
          : previous,
      );
    setStored((previous) => ({
      ...IDLE,
      scope,
      items,
      // A finished preview stays on screen while sending.
      preview:
        previous.scope === scope && previous.items === items && previous.preview.status === 'ready'
          ? previous.preview
          : { status: 'idle' },
      send: { status: 'sending' },
    }));
    try {
      const outcome = await sendAdvice(api, scope, [...items]);
      update((previous) => ({
        send: { status: 'done', outcome },
        // Whatever was delivered is the new baseline: the preview's changes are out of date.
        preview: outcome.data.summary.succeeded > 0 ? { status: 'idle' } : previous.preview,
      }));
      announce(outcome.message);
      // The new snapshot shows in Recent snapshots.
      void invalidateDeliveryState(queryClient);
    } catch (error) {
      update(() => ({ send: { status: 'idle' }, issues: serverIssuesOf(error) }));
    }
  }, [api, announce, queryClient, scope, items]);

  return { state, busy, preview, send };
}
