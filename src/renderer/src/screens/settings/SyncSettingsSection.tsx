import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import {
  syncSettingsBodySchema,
  type SyncSettingsBody,
  type SyncSettingsInput,
  type SyncSettingsView,
} from '../../../../shared/sync-settings';
import { describeError, isApiError } from '../../api/ApiError';
import { useApi } from '../../api/ApiContext';
import {
  clearSyncSettings,
  saveSyncSettings,
  syncSettingsKey,
  useSyncSettings,
} from '../../api/syncSettings';
import { FormError, SavedStatus, InputField } from '../../components/FormMessages';
import { useAnnounce } from '../../status/StatusContext';
import { fieldMessage } from '../orders/orderFormat';
import { saveProblemsOf } from '../orders/serverErrors';
import { syncStateLine } from './syncSettingsState';

const FIELDS = ['central_url', 'device_id', 'device_secret'] as const;
const STOP_QUESTION =
  'Stop syncing with the central service? The app works on its own after the next restart.';
const NOT_ADMIN =
  'Only users with an admin grant can see or change the sync settings. Ask an admin.';

/**
 * Sync with a central service (docs/sync.md): the central's URL, this device's id and secret,
 * stored in the data dir and applied at the next start. Start-up flags win: then read-only.
 */
export function SyncSettingsSection() {
  const api = useApi();
  const queryClient = useQueryClient();
  const announce = useAnnounce();
  const current = useSyncSettings();
  const [formError, setFormError] = useState<string | null>(null);
  const [saved, setSaved] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    reset,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<SyncSettingsInput, unknown, SyncSettingsBody>({
    resolver: zodResolver(syncSettingsBodySchema),
    defaultValues: { central_url: '', device_id: '', device_secret: '' },
  });
  const view = current.data;
  useEffect(() => {
    if (view) {
      reset({
        central_url: view.central_url ?? '',
        device_id: view.device_id ?? '',
        device_secret: '',
      });
    }
  }, [view, reset]);

  const showAnswer = (answer: { message: string; data: SyncSettingsView }) => {
    queryClient.setQueryData(syncSettingsKey, answer.data);
    setSaved(`${answer.message}.`);
    announce(answer.message);
  };
  const showRefusal = (error: unknown) => {
    if (isApiError(error) && error.status === 403) {
      setFormError(`Not saved: ${NOT_ADMIN}`);
      return;
    }
    const problems = saveProblemsOf(error, FIELDS);
    for (const field of problems.fields) {
      setError(field.path as (typeof FIELDS)[number], { message: field.message });
    }
    if (problems.formMessage) setFormError(`Not saved: ${describeError(error)}`);
  };
  const save = useMutation({ mutationFn: (body: SyncSettingsBody) => saveSyncSettings(api, body) });
  const clear = useMutation({ mutationFn: () => clearSyncSettings(api) });

  const onSubmit = handleSubmit(async (body) => {
    setFormError(null);
    setSaved(null);
    try {
      showAnswer(await save.mutateAsync(body));
    } catch (error) {
      showRefusal(error);
    }
  });
  const onStop = async () => {
    if (!window.confirm(STOP_QUESTION)) return;
    setFormError(null);
    setSaved(null);
    try {
      showAnswer(await clear.mutateAsync());
    } catch (error) {
      showRefusal(error);
    }
  };

  const forbidden = isApiError(current.error) && current.error.status === 403;
  const locked = !view || view.source === 'flags';
  const busy = isSubmitting || clear.isPending;
  const urlError = errors.central_url?.message;
  const idError = errors.device_id?.message;
  const secretError = errors.device_secret?.message;
  return (
    <section className="panel" aria-labelledby="settings-sync-heading">
      <h2 id="settings-sync-heading">Sync with a central service</h2>
      <p className="hint">
        A workstation keeps working offline and syncs its orders with the central service when it
        can reach it. The central&apos;s admin gives you this device&apos;s ID and secret. Saved
        settings apply when the app restarts; the data dir must be empty, or already synced with
        this device.
      </p>
      {forbidden ? <p role="status">{NOT_ADMIN}</p> : null}
      {current.isError && !forbidden ? (
        <p role="alert">Could not load the sync settings: {describeError(current.error)}</p>
      ) : null}
      {view ? <p className="settings-sync-state">{syncStateLine(view)}</p> : null}
      {view?.problem ? (
        <p className="form-error" role="alert">
          Not syncing: {view.problem}
        </p>
      ) : null}
      {forbidden ? null : (
        <form onSubmit={(event) => void onSubmit(event)} noValidate className="settings-form">
          <fieldset disabled={locked || busy} className="settings-sync-fields">
            <legend className="visually-hidden">Sync settings</legend>
            <FormError message={formError} />
            <InputField
              id="settings-sync-url"
              label="Central service URL"
              error={urlError && fieldMessage(urlError)}
              type="url"
              autoComplete="off"
              spellCheck={false}
              placeholder="https://central.example.com"
              {...register('central_url')}
            />
            <InputField
              id="settings-sync-device"
              label="Device ID"
              error={idError && fieldMessage(idError)}
              autoComplete="off"
              spellCheck={false}
              placeholder="6f1c2a3b-4d5e-4f60-8a7b-9c0d1e2f3a4b"
              {...register('device_id')}
            />
            <InputField
              id="settings-sync-secret"
              label="Device secret"
              error={secretError && fieldMessage(secretError)}
              type="password"
              autoComplete="new-password"
              placeholder={view?.has_secret ? 'Leave empty to keep the saved secret' : ''}
              {...register('device_secret')}
            />
            <div className="settings-sync-actions">
              <button type="submit" className="button primary">
                {isSubmitting ? 'Saving…' : 'Save'}
              </button>
              {view?.source === 'stored' ? (
                <button type="button" className="button" onClick={() => void onStop()}>
                  {clear.isPending ? 'Stopping…' : 'Stop syncing'}
                </button>
              ) : null}
            </div>
          </fieldset>
          <SavedStatus message={saved} />
        </form>
      )}
    </section>
  );
}
