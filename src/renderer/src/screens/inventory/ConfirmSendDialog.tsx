import { useEffect, useId, useRef, useState } from 'react';
import { keepTabInside } from '../../components/keepTabInside';
import { formatTime } from './labels';
import { plural } from '../../format/plural';
import type { SendConfirmation } from './useSendGuard';

/** At most this many SKUs are named per line; the rest are counted. */
const NAMED = 10;

function Skus({ skus }: { skus: string[] }) {
  const named = skus.slice(0, NAMED).join(', ');
  return (
    <>
      {named}
      {skus.length > NAMED ? ` and ${skus.length - NAMED} more` : ''}
    </>
  );
}

/**
 * Asks before a send that removes SKUs, zeroes them, or repeats the last delivery. Focus starts on
 * Cancel (the safe choice) and goes back to Send when the dialog closes; Escape cancels.
 */
export function ConfirmSendDialog({
  confirm,
  retailerCount,
  onSend,
  onCancel,
}: {
  confirm: SendConfirmation;
  retailerCount: number | null;
  onSend: () => void;
  onCancel: () => void;
}) {
  const dialogRef = useRef<HTMLDialogElement>(null);
  const cancelRef = useRef<HTMLButtonElement>(null);
  const headingId = useId();
  const [opener] = useState(() =>
    document.activeElement instanceof HTMLElement ? document.activeElement : null,
  );

  useEffect(() => {
    const dialog = dialogRef.current;
    if (dialog && !dialog.open) dialog.showModal();
    cancelRef.current?.focus();
    return () => opener?.focus();
  }, [opener]);

  const { risks, identicalTo } = confirm;
  const target = retailerCount === null ? '' : ` to ${plural(retailerCount, 'retailer')}`;
  return (
    <dialog
      ref={dialogRef}
      onKeyDown={keepTabInside}
      className="confirm-dialog"
      aria-labelledby={headingId}
      onCancel={(event) => {
        event.preventDefault();
        onCancel();
      }}
    >
      <h2 id={headingId}>Check before sending</h2>
      {risks.length > 0 ? (
        <>
          <p>The preview shows that this file changes what retailers list:</p>
          <ul className="confirm-risks">
            {risks.map((risk) => (
              <li key={risk.retailer}>
                <strong>{risk.retailer}:</strong>
                {risk.vanishing.length > 0 ? (
                  <span className="risk-line">
                    {plural(risk.vanishing.length, 'SKU')} will vanish (not in this file):{' '}
                    <Skus skus={risk.vanishing} />
                  </span>
                ) : null}
                {risk.goingToZero.length > 0 ? (
                  <span className="risk-line">
                    {plural(risk.goingToZero.length, 'SKU')} will go to 0:{' '}
                    <Skus skus={risk.goingToZero} />
                  </span>
                ) : null}
              </li>
            ))}
          </ul>
        </>
      ) : null}
      {identicalTo ? (
        <p className="confirm-identical">
          This file is the same as the snapshot already delivered{' '}
          {formatTime(identicalTo.createdAt)} ({plural(identicalTo.itemCount, 'SKU')}). Sending it
          again changes nothing at the retailers.
        </p>
      ) : null}
      <div className="dialog-actions">
        <button ref={cancelRef} type="button" className="button" onClick={onCancel}>
          Cancel
        </button>
        <button type="button" className="button primary" onClick={onSend}>
          Send anyway{target}
        </button>
      </div>
    </dialog>
  );
}
