import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import {
  DEFAULT_LABEL_PRINTER_PORT,
  LABEL_PRINTER_PORTS,
  labelPrinterBodySchema,
  type LabelPrinterBody,
} from '../../../../shared/documents';
import { describeError, isApiError } from '../../api/ApiError';
import { useApi } from '../../api/ApiContext';
import { FormError, SavedStatus, InputField } from '../../components/FormMessages';
import { removeLabelPrinter, saveLabelPrinter } from '../../api/fulfilment';
import { useAnnounce } from '../../status/StatusContext';
import { fieldMessage } from '../../format/fieldMessage';
import { formatShortTime } from '../../format/time';
import { saveProblemsOf } from '../../forms/saveProblems';
import { labelPrinterKey, useLabelPrinter } from '../packing/packingQueries';

type PrinterInput = z.input<typeof labelPrinterBodySchema>;
const FIELDS = ['host', 'port'] as const;
const NOT_INSTALL_ADMIN =
  'only an admin of every facility on this workstation may change the label printer. Ask an admin.';

/** The workstation's label printer: where the packing screen sends ZPL labels (raw port 9100). */
export function LabelPrinterForm() {
  const api = useApi();
  const queryClient = useQueryClient();
  const announce = useAnnounce();
  const current = useLabelPrinter();
  const [formError, setFormError] = useState<string | null>(null);
  const [saved, setSaved] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    reset,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<PrinterInput, unknown, LabelPrinterBody>({
    resolver: zodResolver(labelPrinterBodySchema),
    defaultValues: { host: '', port: DEFAULT_LABEL_PRINTER_PORT },
  });
  const setting = current.data;
  useEffect(() => {
    if (setting) reset({ host: setting.host ?? '', port: setting.port });
  }, [setting, reset]);
  const save = useMutation({
    mutationFn: (body: LabelPrinterBody) => saveLabelPrinter(api, body),
    onSuccess: (data) => queryClient.setQueryData(labelPrinterKey, data),
  });
  const remove = useMutation({
    mutationFn: () => removeLabelPrinter(api),
    onSuccess: (data) => queryClient.setQueryData(labelPrinterKey, data),
  });

  const onRemove = async () => {
    setFormError(null);
    setSaved(null);
    try {
      await remove.mutateAsync();
      const text = 'Label printer removed; labels are saved as PDFs.';
      setSaved(text);
      announce(text);
    } catch (error) {
      setFormError(
        isApiError(error) && error.status === 403
          ? `Not removed: ${NOT_INSTALL_ADMIN}`
          : `Not removed: ${describeError(error)}`,
      );
    }
  };

  const onSubmit = handleSubmit(async (body) => {
    setFormError(null);
    setSaved(null);
    try {
      const data = await save.mutateAsync(body);
      const text = `Label printer saved: ${data.host ?? ''}:${data.port}.`;
      setSaved(text);
      announce(text);
    } catch (error) {
      if (isApiError(error) && error.status === 403) {
        setFormError(`Not saved: ${NOT_INSTALL_ADMIN}`);
        return;
      }
      const problems = saveProblemsOf(error, FIELDS);
      for (const field of problems.fields) {
        setError(field.path as (typeof FIELDS)[number], { message: field.message });
      }
      if (problems.formMessage) setFormError(`Not saved: ${describeError(error)}`);
    }
  });

  const hostError = errors.host?.message;
  const portError = errors.port?.message;
  return (
    <section className="panel" aria-labelledby="settings-printer-heading">
      <h2 id="settings-printer-heading">Label printer</h2>
      <p className="hint">
        A thermal label printer on the network that takes ZPL on a printer port (
        {LABEL_PRINTER_PORTS.join(', ')}; usually 9100), not this machine. The packing screen sends
        labels there; without one, labels are saved as PDFs.
        {setting?.host && setting.updated_at
          ? ` Set to ${setting.host}:${setting.port} on ${formatShortTime(setting.updated_at)}.`
          : setting && !setting.host
            ? ' No printer is set yet.'
            : ''}
      </p>
      {current.isError ? (
        <p role="alert">Could not load the printer setting: {describeError(current.error)}</p>
      ) : null}
      <form onSubmit={(event) => void onSubmit(event)} noValidate className="settings-form">
        <FormError message={formError} />
        <InputField
          id="settings-printer-host"
          label="Printer host"
          error={hostError && fieldMessage(hostError)}
          autoComplete="off"
          spellCheck={false}
          placeholder="zebra-dock-1.lan or 192.168.1.50"
          {...register('host')}
        />
        <InputField
          id="settings-printer-port"
          label="Port"
          error={portError && fieldMessage(portError)}
          type="number"
          inputMode="numeric"
          min={1}
          max={65535}
          {...register('port', {
            setValueAs: (value: unknown) =>
              value === '' || value === null || value === undefined ? undefined : Number(value),
          })}
        />
        <div className="settings-sync-actions">
          <button
            type="submit"
            className="button primary"
            disabled={isSubmitting || remove.isPending}
          >
            {isSubmitting ? 'Saving…' : 'Save printer'}
          </button>
          {setting?.host ? (
            <button
              type="button"
              className="button"
              disabled={isSubmitting || remove.isPending}
              onClick={() => void onRemove()}
            >
              {remove.isPending ? 'Removing…' : 'Remove printer'}
            </button>
          ) : null}
        </div>
        <SavedStatus message={saved} />
      </form>
    </section>
  );
}
