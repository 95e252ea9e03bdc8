import { Link } from '@tanstack/react-router';
import type { FulfilmentView } from '../../../../shared/fulfilment';
import type { OrderStepPath } from '../../api/fulfilment';
import { plural } from '../../format/plural';
import { formatShortTime } from '../../format/time';
import type { ConfirmRequest } from './ConfirmDialog';
import { stepButtons, type GatedStep } from './stepGate';
import type { PackingStation } from './usePackingStation';

const PATHS: Record<GatedStep, OrderStepPath> = {
  complete_packing: 'complete-packing',
  stage: 'stage',
  load: 'load',
  ship: 'ship',
};

const DONE_AT: Record<GatedStep, keyof FulfilmentView> = {
  complete_packing: 'packed_at',
  stage: 'staged_at',
  load: 'loaded_at',
  ship: 'shipped_at',
};

/**
 * Ship cannot be undone, so it asks first and names what goes out. Shipping marks the order
 * Shipped and sends its ASN to the retailer where a connection sends ASNs; the answer says
 * whether it went out.
 */
function shipRequest(view: FulfilmentView, station: PackingStation): ConfirmRequest {
  const { cartons, pallets, packed_units: units } = view.totals;
  const onPallets = pallets > 0 ? ` on ${plural(pallets, 'pallet')}` : '';
  return {
    title: `Ship order ${view.picksheet_code}?`,
    body: (
      <>
        <p>
          Going out: {plural(cartons, 'carton')}
          {onPallets} with {plural(units, 'unit')}
          {view.bill_of_lading_number ? `, bill of lading ${view.bill_of_lading_number}` : ''}.
        </p>
        <p>
          The order is marked shipped now, and its ASN goes to the retailer if a connection sends
          ASNs; the order&apos;s retailer documents show whether it went out. Shipping cannot be
          undone: the order can no longer be packed, changed or cancelled.
        </p>
      </>
    ),
    confirmLabel: 'Ship the order',
    onConfirm: () => void station.step('ship'),
  };
}

/** A step that asks first: its button (its label ends in "…") opens the confirm dialog. */
function AskFirstButton({
  label,
  request,
  disabled,
  confirm,
  className = 'button',
}: {
  label: string;
  request: ConfirmRequest;
  disabled: boolean;
  confirm: (request: ConfirmRequest) => void;
  className?: string;
}) {
  return (
    <button
      type="button"
      className={className}
      disabled={disabled}
      onClick={() => confirm(request)}
    >
      {label}…
    </button>
  );
}

/** Complete packing, Stage, Load and Ship, each with what stops it; and Cancel. */
export function StepsPanel({
  view,
  station,
  confirm,
}: {
  view: FulfilmentView;
  station: PackingStation;
  confirm: (request: ConfirmRequest) => void;
}) {
  const buttons = stepButtons(view);
  const busy = station.busy !== null;
  const cancellable = view.status !== 'Shipped' && view.status !== 'Cancelled';
  const needsBol = view.missing.includes('no bill of lading');
  return (
    <section className="panel" aria-labelledby="packing-steps-heading">
      <h2 id="packing-steps-heading">Steps</h2>
      {view.status === 'Open' ? (
        <p>
          <button
            type="button"
            className="button"
            disabled={busy}
            onClick={() => void station.step('start-picking')}
          >
            Start picking
          </button>{' '}
          <span className="hint">or just scan the first item: that starts picking too.</span>
        </p>
      ) : null}
      <ol className="packing-steps">
        {buttons.map((button) => {
          const reasonId = `packing-step-${button.step}-reasons`;
          const at = view[DONE_AT[button.step]];
          return (
            <li key={button.step} className={button.done ? 'done' : undefined}>
              <button
                type="button"
                className={`button${button.enabled ? ' primary' : ''}`}
                disabled={!button.enabled || busy}
                aria-describedby={button.reasons.length > 0 ? reasonId : undefined}
                onClick={() =>
                  button.step === 'ship'
                    ? confirm(shipRequest(view, station))
                    : void station.step(PATHS[button.step])
                }
              >
                {button.step === 'ship' ? `${button.label}…` : button.label}
              </button>
              {button.done ? (
                <span className="status-ok">
                  {' '}
                  Done{typeof at === 'string' ? ` ${formatShortTime(at)}` : ''}
                </span>
              ) : null}
              {button.reasons.length > 0 ? (
                <ul
                  id={reasonId}
                  className="packing-reasons"
                  aria-label={`${button.label}: missing`}
                >
                  {button.reasons.map((reason) => (
                    <li key={reason}>{reason}</li>
                  ))}
                </ul>
              ) : null}
              {button.shortOnly ? (
                <AskFirstButton
                  label="Complete short"
                  disabled={busy}
                  confirm={confirm}
                  request={{
                    title: 'Complete packing short?',
                    body: (
                      <p>
                        {view.totals.ordered_units - view.totals.packed_units} ordered units are not
                        packed. The order ships with {view.totals.packed_units} units.
                      </p>
                    ),
                    confirmLabel: 'Complete short',
                    onConfirm: () => void station.step('complete-packing', { allow_short: true }),
                  }}
                />
              ) : null}
              {button.step === 'complete_packing' && view.status === 'Packed' ? (
                <AskFirstButton
                  label="Reopen packing"
                  disabled={busy}
                  confirm={confirm}
                  request={{
                    title: 'Reopen packing?',
                    body: (
                      <p>
                        The order goes back to Picking so more can be packed. Complete packing again
                        when you are done.
                      </p>
                    ),
                    confirmLabel: 'Reopen packing',
                    onConfirm: () => void station.step('reopen-packing'),
                  }}
                />
              ) : null}
              {button.step === 'ship' && needsBol ? (
                <p className="hint">
                  <Link to="/orders/$orderId" params={{ orderId: view.order_id }}>
                    Upload the bill of lading on the order page
                  </Link>
                  .
                </p>
              ) : null}
            </li>
          );
        })}
      </ol>
      {cancellable ? (
        <AskFirstButton
          label="Cancel order"
          className="button packing-cancel"
          disabled={busy}
          confirm={confirm}
          request={{
            title: `Cancel order ${view.picksheet_code}?`,
            body: (
              <p>
                The order stops here and cannot be packed or shipped any more. Its cartons and
                pallets stay as history.
              </p>
            ),
            confirmLabel: 'Cancel the order',
            onConfirm: () => void station.step('cancel'),
          }}
        />
      ) : (
        <p className="hint">
          This order is {view.status.toLowerCase()}: there is nothing left to do.
        </p>
      )}
    </section>
  );
}
