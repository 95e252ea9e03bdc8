import type { FulfilmentView } from '../../../../shared/fulfilment';
import type { OrderStatus } from '../../../../shared/orders';
import { isApiError } from '../../api/ApiError';

/**
 * Which of the packing screen's step buttons can be pressed, and in words why not. The service's
 * `missing` list says what stops the next step; it is reworded here for clerks (no API flags).
 */

export type GatedStep = 'complete_packing' | 'stage' | 'load' | 'ship';

const STEP_LABELS: Record<GatedStep, string> = {
  complete_packing: 'Complete packing',
  stage: 'Stage',
  load: 'Load',
  ship: 'Ship',
};

/** The status each step is taken from, in the order the steps come. */
const STEP_FROM: Record<GatedStep, OrderStatus> = {
  complete_packing: 'Picking',
  stage: 'Packed',
  load: 'Staged',
  ship: 'Loaded',
};
const GATED_STEPS = Object.keys(STEP_FROM) as GatedStep[];

const STATUS_RANK: Record<OrderStatus, number> = {
  Open: 0,
  Picking: 1,
  Packed: 2,
  Staged: 3,
  Loaded: 4,
  Shipped: 5,
  Cancelled: -1,
};

const SHORT_UNITS = /^(\d+ ordered units?) not packed\b.*$/;

/** One of the service's `missing` texts, as a clerk reads it. */
export function clerkMissing(text: string): string {
  const short = SHORT_UNITS.exec(text);
  if (short) return `${short[1]} not packed yet`;
  if (text === 'no bill of lading') return 'no bill of lading (upload it on the order page)';
  return text;
}

/** Whether the service's `missing` text is the short-pack one (Complete short gets past it). */
const isShortPack = (text: string) => SHORT_UNITS.test(text);

export interface StepButtonState {
  step: GatedStep;
  label: string;
  /** Taken already (the order is past it). */
  done: boolean;
  enabled: boolean;
  /** Why it cannot be pressed now; empty when it can, or once done. */
  reasons: string[];
  /** Complete packing: only short units stop it, so "Complete short" may finish it. */
  shortOnly: boolean;
}

type ViewForSteps = Pick<FulfilmentView, 'status' | 'missing'>;

function reasonsFor(step: GatedStep, view: ViewForSteps): string[] {
  if (view.status === 'Cancelled') return ['the order is cancelled'];
  const rank = STATUS_RANK[view.status];
  const needed = STATUS_RANK[STEP_FROM[step]];
  if (rank === needed) return view.missing.map(clerkMissing);
  if (step === 'complete_packing') return ['nothing is packed yet: scan an item'];
  const previous = GATED_STEPS[GATED_STEPS.indexOf(step) - 1];
  return previous ? [`${STEP_LABELS[previous]} first`] : [];
}

/** The four step buttons of the order now. */
export function stepButtons(view: ViewForSteps): StepButtonState[] {
  return GATED_STEPS.map((step) => {
    const done =
      view.status !== 'Cancelled' && STATUS_RANK[view.status] > STATUS_RANK[STEP_FROM[step]];
    const reasons = done ? [] : reasonsFor(step, view);
    const atStep = view.status === STEP_FROM[step];
    return {
      step,
      label: STEP_LABELS[step],
      done,
      enabled: !done && atStep && reasons.length === 0,
      reasons,
      shortOnly:
        step === 'complete_packing' &&
        atStep &&
        view.missing.length > 0 &&
        view.missing.every(isShortPack),
    };
  });
}

/** A command the screen itself refuses (nothing sent), with the words to show. */
export class StationRefusal extends Error {
  override readonly name = 'StationRefusal';
}

/** A 409 body's `error.missing`, when the service listed what is missing. */
function missingOf(body: unknown): string[] | null {
  if (typeof body !== 'object' || body === null) return null;
  const error = (body as { error?: unknown }).error;
  if (typeof error !== 'object' || error === null) return null;
  const missing = (error as { missing?: unknown }).missing;
  return Array.isArray(missing) && missing.every((m) => typeof m === 'string') ? missing : null;
}

/** The service's raw wording behind a refusal (its `error.details`), for a "Details" toggle. */
export function errorDetailOf(error: unknown): string | null {
  if (!isApiError(error) || typeof error.body !== 'object' || error.body === null) return null;
  const inner = (error.body as { error?: unknown }).error;
  if (typeof inner !== 'object' || inner === null) return null;
  const details = (inner as { details?: unknown }).details;
  return typeof details === 'string' && details !== '' ? details : null;
}

/**
 * A refused scan or step, for the big message next to the scan box: over-packs say so plainly,
 * a brand without a GS1 prefix points to Settings, and the service's closing hint is dropped.
 */
export function clerkErrorText(error: unknown): string {
  if (error instanceof StationRefusal) return error.message;
  if (!isApiError(error)) return 'Something went wrong. Please try again.';
  if (error.code === 'NETWORK_ERROR') {
    return 'Could not reach the service. Check that it is running, then scan again.';
  }
  const message = error.message;
  if (message.startsWith('Cannot pack more than ordered')) {
    const over = missingOf(error.body);
    const what = over
      ? over.join('; ')
      : message
          .replace(/^Cannot pack more than ordered:\s*/, '')
          .replace(/\.\s*Only the ordered quantity.*$/, '');
    return `Over-pack refused: ${what}.`;
  }
  const prefix = /^Brand (.+) has no GS1 company prefix/.exec(message);
  if (prefix) {
    return `Brand ${prefix[1]} has no GS1 company prefix yet: an admin sets it on the Settings screen.`;
  }
  const cannot = /^Cannot ([^:]+): /.exec(message);
  const missing = missingOf(error.body);
  if (cannot && missing) return `Cannot ${cannot[1]}: ${missing.map(clerkMissing).join('; ')}.`;
  return message;
}
