import { zodResolver } from '@hookform/resolvers/zod';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useFieldArray, useForm } from 'react-hook-form';
import {
  acknowledgeBodyOf,
  acknowledgeFormSchema,
  type AcknowledgeForm,
  type AcknowledgmentOptions,
} from '../../../../shared/edi-documents';
import { ACKNOWLEDGE_STATUSES } from '../../../../shared/order-documents';
import { useApi } from '../../api/ApiContext';
import { describeError } from '../../api/ApiError';
import { acknowledgeOrder } from '../../api/ediDocuments';
import { invalidateOrders } from '../../api/orderKeys';
import { FormError, invalidProps } from '../../components/FormMessages';
import { useAnnounce } from '../../status/StatusContext';
import { acknowledgeOutcome } from './acknowledgeOutcome';

const CHOICE_NAMES: Record<(typeof ACKNOWLEDGE_STATUSES)[number], string> = {
  accepted: 'Accepted',
  rejected: 'Rejected',
  backordered: 'Backordered',
  quantity_changed: 'Quantity changed',
};

/**
 * The Acknowledge panel (issue 16, item 4): per PO line accepted, rejected, backordered or a
 * changed quantity, then an 855 to the retailer. What it says afterwards is what happened per
 * connection (sent, queued or failed): a document waiting in the outbox is never called sent.
 */
export function AcknowledgePanel({
  orderId,
  options,
}: {
  orderId: string;
  options: AcknowledgmentOptions;
}) {
  const api = useApi();
  const announce = useAnnounce();
  const queryClient = useQueryClient();
  const [formError, setFormError] = useState<string | null>(null);
  const [outcome, setOutcome] = useState<string | null>(null);
  const {
    control,
    register,
    handleSubmit,
    watch,
    formState: { errors, isSubmitting },
  } = useForm<AcknowledgeForm>({
    resolver: zodResolver(acknowledgeFormSchema),
    defaultValues: {
      lines: options.lines.map((line) => ({
        line_id: line.line_id,
        status: 'accepted',
        quantity: String(line.quantity),
      })),
    },
  });
  const { fields } = useFieldArray({ control, name: 'lines' });
  const choices = watch('lines');

  const onSubmit = handleSubmit(async (form) => {
    setFormError(null);
    setOutcome(null);
    try {
      const answer = await acknowledgeOrder(api, orderId, acknowledgeBodyOf(form));
      const text = acknowledgeOutcome(answer.message, answer.documents);
      setOutcome(text);
      announce(text);
    } catch (error) {
      setFormError(`Not sent: ${describeError(error)}`);
    } finally {
      await invalidateOrders(queryClient).catch(() => undefined);
    }
  });

  return (
    <section className="panel" aria-labelledby="acknowledge-heading">
      <h2 id="acknowledge-heading">Acknowledge the purchase order</h2>
      <p className="hint">
        Choose for each PO line what you will ship; lines left Accepted are accepted. The
        acknowledgment (855) goes to the retailer.
      </p>
      <form onSubmit={(event) => void onSubmit(event)} noValidate>
        {fields.map((field, index) => {
          const line = options.lines[index]!;
          const id = `ack-line-${index}`;
          const quantityError = errors.lines?.[index]?.quantity?.message;
          // Each control names its line and SKU: a list of "Quantity" fields is no help by ear.
          const lineName = `line ${line.line_id} (${line.sku})`;
          return (
            <fieldset key={field.id} className="ack-line">
              <legend>
                Line {line.line_id}: {line.sku}, {line.quantity} ordered
              </legend>
              <div className="field">
                <label htmlFor={`${id}-status`}>Acknowledgment for {lineName}</label>
                <select id={`${id}-status`} {...register(`lines.${index}.status`)}>
                  {ACKNOWLEDGE_STATUSES.map((status) => (
                    <option key={status} value={status}>
                      {CHOICE_NAMES[status]}
                    </option>
                  ))}
                </select>
              </div>
              {choices[index]?.status === 'quantity_changed' ? (
                <div className="field">
                  <label htmlFor={`${id}-quantity`}>Quantity for {lineName}</label>
                  <input
                    id={`${id}-quantity`}
                    inputMode="numeric"
                    autoComplete="off"
                    {...invalidProps(`${id}-quantity`, quantityError)}
                    {...register(`lines.${index}.quantity`)}
                  />
                  {quantityError ? (
                    <p id={`${id}-quantity-error`} className="field-error" role="alert">
                      {quantityError}
                    </p>
                  ) : null}
                </div>
              ) : null}
            </fieldset>
          );
        })}
        {/* A refusal shows where the clerk pressed Send, not above a long list of lines. */}
        <FormError message={formError} />
        <button type="submit" className="button primary" disabled={isSubmitting}>
          {isSubmitting ? 'Sending acknowledgment…' : 'Send acknowledgment'}
        </button>
      </form>
      {outcome ? <p role="status">{outcome}</p> : null}
    </section>
  );
}
