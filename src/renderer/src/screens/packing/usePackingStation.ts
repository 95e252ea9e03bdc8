import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import type { LabelKind } from '../../../../shared/documents';
import type { FulfilmentView, StepResult } from '../../../../shared/fulfilment';
import { useApi } from '../../api/ApiContext';
import {
  closeCarton,
  createPallet,
  deletePallet,
  fetchComplianceReport,
  fetchOrderLabels,
  fetchPackingSlip,
  fetchUnitLabel,
  moveCarton,
  printLabels,
  scanCode,
  shipOrder,
  takeStep,
  unpackCarton,
  type OrderStepPath,
} from '../../api/fulfilment';
import { useFileTransfer } from '../../api/transfer';
import { saveBlob } from '../../components/saveBlob';
import { invalidateOrders } from '../../api/orderKeys';
import { beepRefused } from './beep';
import { fulfilmentKey, useLabelPrinter } from './packingQueries';
import { bytesOfBase64, labelFileName, looksLikePdf } from './pdfFiles';
import { isPackingComplete, offersPdfInstead } from './serviceRefusals';
import { scanActionOf } from './scanInput';
import { clerkErrorText, errorDetailOf, StationRefusal } from './stepGate';

/** A carton or pallet chosen on screen (by its SSCC scanned, a click, or as the last one made). */
export interface UnitRef {
  kind: 'carton' | 'pallet';
  id: string;
}

export interface Feedback {
  tone: 'ok' | 'error';
  text: string;
  /** The service's own wording of a refusal, shown behind "Details". */
  detail?: string | null;
}

/** A label the printer did not take, offered as a PDF download instead. */
export interface PdfInstead {
  /** What the PDF holds, e.g. "the label of carton 2". */
  what: string;
  save: () => Promise<string>;
}

/** Labels printed while packing lack the carton total (decisions.md, Documents): say how to fix it. */
const RELABEL_NOTE =
  'Labels printed before now say "CARTON n" without the total: All labels (F8) prints them with it.';

const STEP_DONE: Record<Exclude<OrderStepPath, 'ship'>, string> = {
  'start-picking': 'Picking started.',
  'complete-packing': `Packing complete. ${RELABEL_NOTE}`,
  'reopen-packing': 'Packing reopened: scan to pack more, then complete packing again.',
  stage: 'Order staged.',
  load: 'Order loaded.',
  cancel: 'Order cancelled.',
};

const cartonNumber = (view: FulfilmentView, id: string) =>
  view.cartons.findIndex((carton) => carton.id === id) + 1;
const palletNumber = (view: FulfilmentView, id: string) =>
  view.pallets.findIndex((pallet) => pallet.id === id) + 1;

/** What a packed scan did, in words. */
function packedText(view: FulfilmentView, code: string, result: StepResult): string {
  const line = view.lines.find((l) => [l.sku, l.upc, l.case_barcode].includes(code));
  const isCase = line !== undefined && line.case_barcode === code && line.sku !== code;
  const what = line
    ? isCase
      ? `a case of ${line.case_pack_quantity ?? 1} × ${line.sku}`
      : `1 × ${line.sku}`
    : code;
  const carton = result.carton;
  return carton
    ? `Packed ${what}. The open carton has ${carton.units} ${carton.units === 1 ? 'unit' : 'units'}.`
    : `Packed ${what}.`;
}

/**
 * The packing station's state and commands: the selected unit and target pallet, scans and the
 * steps. Scans and commands run one at a time in the order they came (a fast scanner, then F2
 * at once), each command on the order as it is after the work before it; a refused scan drops
 * the scans queued behind it. The order is refreshed and the scan box focused once all is done.
 */
export function usePackingStation(orderId: string, view: FulfilmentView | null) {
  const api = useApi();
  const transfer = useFileTransfer();
  const queryClient = useQueryClient();
  const printer = useLabelPrinter();
  const [feedback, setFeedback] = useState<Feedback | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const [selected, setSelectedState] = useState<UnitRef | null>(null);
  const [targetPalletId, setTargetState] = useState<string | null>(null);
  const [labelKind, setLabelKind] = useState<LabelKind>('gs1');
  /** The code of a scan refused because packing is complete: the screen asks to reopen. */
  const [reopenAsk, setReopenAsk] = useState<string | null>(null);
  const [pdfInstead, setPdfInstead] = useState<PdfInstead | null>(null);
  // Queued commands read these when they run, not when they were queued.
  const selectedRef = useRef<UnitRef | null>(null);
  const targetRef = useRef<string | null>(null);
  const setSelected = useCallback((unit: UnitRef | null) => {
    selectedRef.current = unit;
    setSelectedState(unit);
  }, []);
  const setTargetPalletId = useCallback((palletId: string | null) => {
    targetRef.current = palletId;
    setTargetState(palletId);
  }, []);
  const scanInput = useRef<HTMLInputElement>(null);
  const latest = useRef(view);
  latest.current = view;
  const chain = useRef<Promise<void>>(Promise.resolve());
  const pending = useRef(0);
  /** Work done since the last refresh: the cached view may be behind. */
  const stale = useRef(false);
  /** Bumped by a refused scan; scans queued before it are then dropped. */
  const scanRound = useRef(0);

  const focusScan = useCallback(() => scanInput.current?.focus(), []);
  const refresh = useCallback(async () => {
    stale.current = false;
    await invalidateOrders(queryClient).catch(() => undefined);
  }, [queryClient]);
  /** The order as it is now (refreshed first when work was done since the last look). */
  const freshView = useCallback(async (): Promise<FulfilmentView | null> => {
    if (stale.current) await refresh();
    return queryClient.getQueryData<FulfilmentView>(fulfilmentKey(orderId)) ?? latest.current;
  }, [queryClient, orderId, refresh]);
  const refused = useCallback((error: unknown) => {
    setFeedback({ tone: 'error', text: clerkErrorText(error), detail: errorDetailOf(error) });
    beepRefused();
  }, []);

  // A target pallet that was deleted or left Open no longer takes cartons. A pallet this station
  // just made is not in the view until the refresh after it: it stays the target meanwhile.
  const madeHere = useRef<string | null>(null);
  const targetInView = view?.pallets.find((p) => p.id === targetPalletId);
  if (targetInView && madeHere.current === targetInView.id) madeHere.current = null;
  const target = targetInView?.status === 'Open' ? targetInView : null;
  const awaitingTarget = targetPalletId !== null && madeHere.current === targetPalletId;
  useEffect(() => {
    if (view && targetPalletId && !target && !awaitingTarget) setTargetPalletId(null);
  }, [view, targetPalletId, target, awaitingTarget, setTargetPalletId]);

  /** Queues `work` behind everything queued before it. */
  const enqueue = useCallback(
    (label: string, work: () => Promise<void>): Promise<void> => {
      pending.current += 1;
      setBusy(label);
      const next = chain.current.then(async () => {
        try {
          await work();
        } finally {
          stale.current = true;
          pending.current -= 1;
          if (pending.current === 0) {
            await refresh();
            if (pending.current === 0) {
              setBusy(null);
              focusScan();
            }
          }
        }
      });
      chain.current = next.catch(() => undefined);
      return next;
    },
    [refresh, focusScan],
  );

  /** Runs one command in turn; its outcome (or refusal) is shown. */
  const run = useCallback(
    (label: string, command: () => Promise<string>) =>
      enqueue(label, async () => {
        // An offer of a PDF instead of a failed print lasts until the next command or scan.
        setPdfInstead(null);
        try {
          setFeedback({ tone: 'ok', text: await command() });
        } catch (error) {
          refused(error);
        }
      }),
    [enqueue, refused],
  );

  /** Packs one item code; a Packed order's refusal also asks the screen to offer reopening. */
  const packCode = useCallback(
    async (current: FulfilmentView, code: string): Promise<string> => {
      try {
        return packedText(current, code, await scanCode(api, orderId, code));
      } catch (error) {
        if (isPackingComplete(error)) {
          setReopenAsk(code);
        }
        throw error;
      }
    },
    [api, orderId],
  );

  const handleScan = useCallback(
    async (raw: string) => {
      let current = await freshView();
      if (!current) return;
      let action = scanActionOf(raw, current);
      if (action.kind === 'unknown-sscc') {
        // A carton or pallet made at another station since the last look.
        stale.current = true;
        current = (await freshView()) ?? current;
        action = scanActionOf(raw, current);
      }
      switch (action.kind) {
        case 'none':
          return;
        case 'carton':
          setSelected({ kind: 'carton', id: action.carton.id });
          setFeedback({
            tone: 'ok',
            text: `Carton ${cartonNumber(current, action.carton.id)} selected (${action.carton.units} units).`,
          });
          return;
        case 'pallet':
          setSelected({ kind: 'pallet', id: action.pallet.id });
          if (action.pallet.status === 'Open') setTargetPalletId(action.pallet.id);
          setFeedback({
            tone: 'ok',
            text:
              action.pallet.status === 'Open'
                ? `Pallet ${palletNumber(current, action.pallet.id)} selected: closed cartons go on it.`
                : `Pallet ${palletNumber(current, action.pallet.id)} selected (${action.pallet.status}).`,
          });
          return;
        case 'unknown-sscc':
          throw new StationRefusal(`SSCC ${action.sscc} is not a carton or pallet of this order.`);
        case 'pack': {
          setFeedback({ tone: 'ok', text: await packCode(current, action.code) });
          return;
        }
      }
    },
    [freshView, packCode, setSelected, setTargetPalletId],
  );

  const scan = useCallback(
    (raw: string) => {
      const round = scanRound.current;
      void enqueue('Packing…', async () => {
        if (round !== scanRound.current) return;
        setPdfInstead(null);
        try {
          await handleScan(raw);
        } catch (error) {
          scanRound.current += 1;
          refused(error);
        }
      });
    },
    [enqueue, handleScan, refused],
  );

  const closeOpenCarton = () =>
    run('Closing the carton…', async () => {
      const current = await freshView();
      const open = current?.open_carton;
      if (!current || !open) {
        throw new StationRefusal('No carton is open: scan an item to start one.');
      }
      const number = cartonNumber(current, open.id);
      await closeCarton(api, orderId, open.id);
      setSelected({ kind: 'carton', id: open.id });
      const onto = current.pallets.find((p) => p.id === targetRef.current && p.status === 'Open');
      if (onto) {
        await moveCarton(api, orderId, open.id, onto.id);
        return `Carton ${number} closed and put on pallet ${palletNumber(current, onto.id)}.`;
      }
      return `Carton ${number} closed.`;
    });

  const newPallet = () =>
    run('Making a pallet…', async () => {
      const current = await freshView();
      const loose = (current?.cartons ?? [])
        .filter((c) => c.packing_complete_at !== null && c.pallet_id === null)
        .map((c) => c.id);
      const result = await createPallet(api, orderId, { carton_ids: loose });
      const pallet = result.pallet;
      if (pallet) {
        madeHere.current = pallet.id;
        setTargetPalletId(pallet.id);
        setSelected({ kind: 'pallet', id: pallet.id });
      }
      const number = (current?.pallets.length ?? 0) + 1;
      return loose.length > 0
        ? `Pallet ${number} made with ${loose.length} ${loose.length === 1 ? 'carton' : 'cartons'}; closed cartons go on it.`
        : `Pallet ${number} made; closed cartons go on it.`;
    });

  /** The unit F4 prints: the selected one, else the last closed carton. */
  const labelUnitOf = (current: FulfilmentView | null, chosen: UnitRef | null): UnitRef | null => {
    const units: { id: string }[] =
      chosen?.kind === 'pallet' ? (current?.pallets ?? []) : (current?.cartons ?? []);
    if (chosen && units.some((unit) => unit.id === chosen.id)) return chosen;
    const closed = (current?.cartons ?? []).filter((c) => c.packing_complete_at !== null);
    const last = closed[closed.length - 1];
    return last ? { kind: 'carton', id: last.id } : null;
  };

  const printLabel = () =>
    run('Printing the label…', async () => {
      const current = await freshView();
      const unit = labelUnitOf(current, selectedRef.current);
      if (!current || !unit) {
        throw new StationRefusal('Nothing to label yet: close a carton first.');
      }
      const isCarton = unit.kind === 'carton';
      const number = isCarton ? cartonNumber(current, unit.id) : palletNumber(current, unit.id);
      const sscc =
        (isCarton ? current.cartons : current.pallets).find((u) => u.id === unit.id)?.sscc ?? null;
      const name = `${unit.kind} ${number}`;
      const fileName = labelFileName(unit.kind, number, sscc);
      const savePdf = async (why = '') => {
        saveBlob(
          await fetchUnitLabel(transfer, orderId, isCarton ? 'cartons' : 'pallets', unit.id, 'gs1'),
          fileName,
        );
        return `Label of ${name} saved as ${fileName}: open it to print${why}.`;
      };
      const host = printer.data?.host;
      if (host) {
        await offerPdfIfPrintFails(
          `the label of ${name}`,
          () => savePdf(),
          () =>
            printLabels(api, orderId, {
              kind: 'gs1',
              ...(isCarton ? { carton_ids: [unit.id] } : { pallet_ids: [unit.id] }),
            }),
        );
        return `Label of ${name} sent to the printer at ${host}.`;
      }
      return savePdf(' (no label printer is set)');
    });

  /** Runs a print; when the printer (or its setting) fails, offers the same labels as a PDF. */
  const offerPdfIfPrintFails = async <T>(
    what: string,
    save: () => Promise<string>,
    print: () => Promise<T>,
  ): Promise<T> => {
    try {
      return await print();
    } catch (error) {
      if (offersPdfInstead(error)) {
        setPdfInstead({ what, save });
      }
      throw error;
    }
  };

  /** Saves the PDF offered after a failed print. */
  const savePdfInstead = () => {
    const offer = pdfInstead;
    if (offer) void run('Saving the PDF…', offer.save);
  };

  const putOnPallet = (cartonId: string, palletId: string | null) =>
    run('Moving the carton…', async () => {
      const current = await freshView();
      await moveCarton(api, orderId, cartonId, palletId);
      const number = current ? cartonNumber(current, cartonId) : 0;
      return palletId && current
        ? `Carton ${number} is on pallet ${palletNumber(current, palletId)}.`
        : `Carton ${number} is off its pallet.`;
    });

  const unpack = (cartonId: string) =>
    run('Unpacking…', async () => {
      const current = await freshView();
      const number = current ? cartonNumber(current, cartonId) : 0;
      await unpackCarton(api, orderId, cartonId);
      if (selectedRef.current?.id === cartonId) setSelected(null);
      return `Carton ${number} unpacked.`;
    });

  const removePallet = (palletId: string) =>
    run('Deleting the pallet…', async () => {
      const current = await freshView();
      const number = current ? palletNumber(current, palletId) : 0;
      await deletePallet(api, orderId, palletId);
      if (selectedRef.current?.id === palletId) setSelected(null);
      return `Pallet ${number} deleted; its cartons are off any pallet.`;
    });

  const step = (path: OrderStepPath, body: Record<string, unknown> = {}) =>
    run('Working…', async () => {
      // The service says what became of the ASN (sent, queued, failed, none): shown as it is.
      if (path === 'ship') return shipOrder(api, orderId);
      await takeStep(api, orderId, path, body);
      return body['allow_short']
        ? `Packing complete; the order ships short. ${RELABEL_NOTE}`
        : STEP_DONE[path];
    });

  const saveAllLabels = async (kind: LabelKind) => {
    const units = kind === 'placard' ? 'pallets' : 'all';
    const fileName = `labels-${latest.current?.picksheet_code ?? orderId}-${kind}.pdf`;
    saveBlob(await fetchOrderLabels(transfer, orderId, units, kind), fileName);
    return `Labels saved as ${fileName}: open it to print.`;
  };

  const downloadLabels = (kind: LabelKind) =>
    run('Getting the labels…', async () => {
      const current = await freshView();
      const labelled = kind === 'placard' ? current?.pallets.length : current?.cartons.length;
      if (!labelled) {
        throw new StationRefusal(
          kind === 'placard'
            ? 'Placards are for pallets: make a pallet first.'
            : 'Labels come once a carton is packed.',
        );
      }
      return saveAllLabels(kind);
    });

  const sendLabels = (kind: LabelKind) =>
    run('Sending labels…', async () => {
      const units = kind === 'placard' ? 'pallets' : 'all';
      const answer = await offerPdfIfPrintFails(
        'these labels',
        () => saveAllLabels(kind),
        () => printLabels(api, orderId, { kind, units }),
      );
      return `${answer.labels} ${answer.labels === 1 ? 'label' : 'labels'} sent to the printer at ${answer.printer.host}.`;
    });

  /** Takes back "Complete packing" and packs the scan it refused. */
  const reopenAndPack = (code: string) =>
    run('Reopening packing…', async () => {
      await takeStep(api, orderId, 'reopen-packing');
      stale.current = true;
      const current = await freshView();
      if (!current) return 'Packing reopened.';
      return `Packing reopened. ${await packCode(current, code)}`;
    });

  const downloadPackingSlip = () =>
    run('Getting the packing slip…', async () => {
      const fileName = `packing-slip-${latest.current?.picksheet_code ?? orderId}.pdf`;
      saveBlob(await fetchPackingSlip(transfer, orderId), fileName);
      return `Packing slip saved as ${fileName}: open it to print.`;
    });

  const downloadComplianceReport = () =>
    run('Getting the compliance report…', async () => {
      const current = await freshView();
      if (current && current.packed_at === null) {
        throw new StationRefusal('The compliance report is there once packing is complete.');
      }
      const report = await fetchComplianceReport(api, orderId);
      const bytes = bytesOfBase64(report.pdf_content);
      if (!looksLikePdf(bytes)) throw new StationRefusal('The compliance report is not a PDF.');
      saveBlob(new Blob([bytes], { type: report.mime_type }), report.filename);
      return `Compliance report saved as ${report.filename}.`;
    });

  return {
    scanInput,
    focusScan,
    feedback,
    clearFeedback: () => setFeedback(null),
    busy,
    selected,
    select: setSelected,
    target,
    setTargetPalletId,
    labelUnit: () => labelUnitOf(view, selected),
    printerHost: printer.data?.host ?? null,
    labelKind,
    setLabelKind,
    reopenAsk,
    clearReopenAsk: () => setReopenAsk(null),
    reopenAndPack,
    pdfInstead,
    savePdfInstead,
    scan,
    closeOpenCarton,
    newPallet,
    printLabel,
    putOnPallet,
    unpack,
    removePallet,
    step,
    downloadLabels,
    sendLabels,
    downloadPackingSlip,
    downloadComplianceReport,
  };
}

export type PackingStation = ReturnType<typeof usePackingStation>;
