import { useCallback, useMemo, useRef, useState } from 'react';
import { localDay } from '../../../../shared/inventory';
import type { AdviceScope } from '../../api/inventory';
import { useAdviceConnections, statusRetailersOf } from './inventoryQueries';
import type { MessageContext } from './clerkMessages';
import type { ItemField } from './columns';
import { useInventoryDraft } from './InventoryDraft';
import { nextProblem, problemCells } from './problemList';
import { checkSheet, emptyCheck, mergeChecks, type RowCheck } from './rowCheck';
import type { CellFocusRequest } from './RowsTable';
import { withCellEdit, type ParsedSheet } from './sheetRows';

/**
 * Fixes a cell in place: the edited sheet replaces the loaded one in the session's draft, so it
 * is what the table shows, what is checked and sent, and what survives a visit to another screen.
 */
export function useSheetEdits(sheet: ParsedSheet | null) {
  const { setInput } = useInventoryDraft();
  // Two edits in one tick (leaving one cell for another) must build on each other.
  const latest = useRef(sheet);
  latest.current = sheet;
  return useCallback(
    (index: number, field: ItemField, text: string) => {
      const current = latest.current;
      if (!current) return;
      const next = withCellEdit(current, index, field, text);
      latest.current = next;
      setInput({ status: 'ready', sheet: next });
    },
    [setInput],
  );
}

/** Who needs a status at 0 for this scope, asked of the service as soon as the scope is chosen. */
export function useStatusRetailers(scope: AdviceScope | null): string[] | null {
  const { data } = useAdviceConnections(scope);
  return useMemo(() => (data ? statusRetailersOf(data) : null), [data]);
}

/**
 * The sheet's problems (the screen's check, plus the service's last refusal), how to word them,
 * and "next problem".
 */
export function useRowsCheck(
  sheet: ParsedSheet | null,
  statusRetailers: string[] | null,
  serverCheck: RowCheck | null,
) {
  const localCheck = useMemo(
    () =>
      sheet
        ? checkSheet(sheet, {
            // The day is taken per check, so an edit after midnight uses the new day.
            today: localDay(new Date()),
            statusRequiredAtZero: (statusRetailers?.length ?? 0) > 0,
          })
        : emptyCheck(),
    [sheet, statusRetailers],
  );
  const check = useMemo(() => mergeChecks(localCheck, serverCheck), [localCheck, serverCheck]);
  const context = useMemo<MessageContext | null>(
    () => (sheet ? { sheet, statusRetailers: statusRetailers ?? undefined } : null),
    [sheet, statusRetailers],
  );

  const [focusRequest, setFocusRequest] = useState<CellFocusRequest | null>(null);
  const serial = useRef(0);
  const goToNextProblem = useCallback(() => {
    if (!context) return;
    const active = document.activeElement;
    const here =
      active instanceof HTMLElement && active.dataset.rowIndex && active.dataset.field
        ? { index: Number(active.dataset.rowIndex), field: active.dataset.field as ItemField }
        : null;
    const target = nextProblem(problemCells(check, context), here ?? focusRequest);
    if (target)
      setFocusRequest({ index: target.index, field: target.field, serial: ++serial.current });
  }, [check, context, focusRequest]);

  return { localCheck, check, context, focusRequest, goToNextProblem };
}
