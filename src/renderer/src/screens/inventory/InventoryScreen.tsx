import { useEffect, useState, type ReactNode } from 'react';
import { ActionBar } from './ActionBar';
import { ClerkText } from './ClerkText';
import { clerkSummary } from './clerkMessages';
import { ConfirmSendDialog } from './ConfirmSendDialog';
import { DocumentDialog } from './DocumentDialog';
import { InputPanel } from './InputPanel';
import { useInventoryDraft } from './InventoryDraft';
import { plural } from '../../format/plural';
import { PreviewPanel } from './PreviewPanel';
import { RecentSnapshots } from './RecentSnapshots';
import type { RowCheck } from './rowCheck';
import { RowsTable } from './RowsTable';
import { ScopePicker } from './ScopePicker';
import { SendResults, type DocumentRequest } from './SendResults';
import type { RowInput } from './sheetRows';
import { useAdviceActions } from './useAdviceActions';
import { useParsedInput } from './useParsedInput';
import { useRowsCheck, useSheetEdits, useStatusRetailers } from './useRowsWork';
import { useScope } from './useScope';
import { useSendGuard } from './useSendGuard';

export const EMPTY_TEXT =
  'Drop a CSV or XLSX file with columns sku and available_quantity, or paste rows, to start.';

const NO_ROWS: readonly RowInput[] = [];

function ProblemAlert({ title, problems }: { title: ReactNode; problems: string[] }) {
  return (
    <div className="state-message error" role="alert">
      <div>{title}</div>
      {problems.length > 0 ? (
        <ul>
          {problems.map((problem) => (
            <li key={problem}>{problem}</li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}

function blockerOf(
  hasScope: boolean,
  hasRows: boolean,
  check: RowCheck,
  retailerCount: number | null,
): string | null {
  if (!hasScope) return 'Choose a facility and a brand first.';
  if (retailerCount === 0) return 'No retailer is connected to this brand at this facility.';
  if (!hasRows) return 'Add rows first: drop or choose a file, or paste rows.';
  if (check.cells.size > 0)
    return `Fix the ${plural(check.cells.size, 'row')} with problems first.`;
  if (check.general.length > 0) return 'Fix the problems listed above first.';
  return null;
}

/** Upload a stock file, check it, preview what each retailer gets, send it, and see the results. */
export function InventoryScreen() {
  const choice = useScope();
  const input = useParsedInput();
  const sheet = input.state.status === 'ready' ? input.state.sheet : null;
  const items = sheet?.items ?? NO_ROWS;

  const statusRetailers = useStatusRetailers(choice.scope);
  const editCell = useSheetEdits(sheet);
  const actions = useAdviceActions(choice.scope, sheet ? sheet.items : null);
  const { preview, send, issues } = actions.state;
  const rows = useRowsCheck(sheet, statusRetailers, issues ? issues.check : null);
  const { localCheck, check } = rows;
  // Send previews first and asks when SKUs vanish or go to 0, or the rows were already sent.
  const guard = useSendGuard({
    scope: choice.scope,
    items: sheet ? sheet.items : null,
    preview: actions.preview,
    send: actions.send,
  });
  const [documentRequest, setDocumentRequest] = useState<DocumentRequest | null>(null);

  const retailerCount =
    preview.status === 'ready'
      ? preview.preview.connections.length
      : choice.retailers.status === 'ready'
        ? choice.retailers.data.length
        : null;
  const sending = send.status === 'sending';
  // Rows the service took are no longer at risk (a failed delivery is kept and can be retried).
  const { markSent } = useInventoryDraft();
  const sentOutcome = send.status === 'done' ? send.outcome : null;
  useEffect(() => {
    if (sentOutcome && sheet) markSent(sheet);
  }, [sentOutcome, sheet, markSent]);

  return (
    <section aria-labelledby="inventory-heading" className="inventory">
      <div className="screen-header">
        <h1 id="inventory-heading" tabIndex={-1}>
          Inventory
        </h1>
      </div>
      <p className="lead">
        Send a complete on-hand snapshot of a brand&apos;s stock at a facility to every retailer
        connected there. SKUs left out of the file disappear at the retailer.
      </p>

      <ScopePicker choice={choice} disabled={sending} />
      <InputPanel
        onFile={input.readFile}
        onText={input.readText}
        disabled={sending}
        statusRetailers={statusRetailers}
      />

      {input.state.status === 'reading' ? (
        <p className="state-message" role="status">
          Reading {input.state.source}…
        </p>
      ) : null}
      {input.state.status === 'error' ? (
        <ProblemAlert
          title={`Could not use ${input.state.source}: ${input.state.message}`}
          problems={[]}
        />
      ) : null}
      {issues ? (
        <ProblemAlert
          title={<ClerkText message={clerkSummary(issues.message)} />}
          problems={issues.check.general}
        />
      ) : null}
      {!issues && localCheck.general.length > 0 ? (
        <ProblemAlert title="These rows cannot be sent:" problems={localCheck.general} />
      ) : null}

      {sheet && rows.context ? (
        <RowsTable
          sheet={sheet}
          check={check}
          context={rows.context}
          onEditCell={editCell}
          onNextProblem={rows.goToNextProblem}
          focusRequest={rows.focusRequest}
        />
      ) : input.state.status === 'empty' ? (
        <p className="state-message empty">{EMPTY_TEXT}</p>
      ) : null}

      <ActionBar
        blocker={blockerOf(choice.scope !== null, items.length > 0, check, retailerCount)}
        busy={actions.busy}
        sending={sending}
        previewing={preview.status === 'loading'}
        checking={guard.state.status === 'checking'}
        retailerCount={retailerCount}
        problemRows={check.cells.size}
        onNextProblem={rows.goToNextProblem}
        onPreview={() => void actions.preview()}
        onSend={() => void guard.send()}
      />
      {guard.state.status === 'confirming' ? (
        <ConfirmSendDialog
          confirm={guard.state.confirm}
          retailerCount={retailerCount}
          onSend={guard.confirm}
          onCancel={guard.cancel}
        />
      ) : null}

      {send.status === 'done' ? (
        <SendResults outcome={send.outcome} onViewDocument={setDocumentRequest} />
      ) : null}
      {preview.status === 'ready' ? <PreviewPanel preview={preview.preview} /> : null}
      {choice.scope ? (
        <RecentSnapshots
          key={`${choice.scope.facilityId}:${choice.scope.brandId}`}
          scope={choice.scope}
          onViewDocument={setDocumentRequest}
        />
      ) : null}
      {documentRequest ? (
        <DocumentDialog request={documentRequest} onClose={() => setDocumentRequest(null)} />
      ) : null}
    </section>
  );
}
