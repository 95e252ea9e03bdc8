import type { UseQueryResult } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { describeError } from './ApiError';

/** What a screen needs to know about one load. */
export type LoadState<T> =
  | { status: 'idle' }
  | { status: 'loading' }
  | { status: 'error'; message: string }
  | { status: 'ready'; data: T };

/** A query as a LoadState; cached data stays `ready` while it is refreshed in the background. */
export function loadStateOf<T>(query: UseQueryResult<T>, enabled = true): LoadState<T> {
  if (!enabled) return { status: 'idle' };
  if (query.isError) return { status: 'error', message: describeError(query.error) };
  if (query.data !== undefined) return { status: 'ready', data: query.data };
  return { status: 'loading' };
}

/** Calls `onLoaded` each time the query gets a new answer (not again for the same one). */
export function useOnQueryData<T>(query: UseQueryResult<T>, onLoaded: (data: T) => void) {
  const latest = useRef(onLoaded);
  latest.current = onLoaded;
  const { data, dataUpdatedAt } = query;
  useEffect(() => {
    if (data !== undefined) latest.current(data);
  }, [data, dataUpdatedAt]);
}
