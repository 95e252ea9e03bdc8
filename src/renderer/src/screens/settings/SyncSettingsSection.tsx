import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import {
  syncSettingsBodySchema,
  SYNC_NOT_ON_POSTGRES,
  type SyncSettingsBody,
  type SyncSettingsInput,
  type SyncSettingsView,
} from '../../../../shared/sync-settings';
import { describeError, isApiError } from '../../api/ApiError';
import { useApi } from '../../api/ApiContext';
import {
  acceptNewCentral,
  clearSyncSettings,
  saveSyncSettings,
  syncSettingsKey,
  useSyncSettings,
} from '../../api/syncSettings';
import { FormError, SavedStatus, InputField } from '../../components/FormMessages';
import { useAnnounce } from '../../status/StatusContext';
import { fieldMessage } from '../../format/fieldMessage';
import { saveProblemsOf } from '../../forms/saveProblems';
import { syncStateLine } from './syncSettingsState';

const FIELDS = ['central_url', 'device_id', 'device_secret'] as const;
const STOP_QUESTION =
  'Stop syncing with the central service? The app works on its own after the next restart.';
const NOT_ADMIN =
  'Only users with an admin grant can see or change the sync settings. Ask an admin.';
const NOT_INSTALL_ADMIN =
  'Only an admin of every facility on this workstation can change the sync settings.';
/** The service says the same (400 at device_secret); checked here first, without a round trip. */
const SECRET_FOR_NEW_URL = 'is required for a new central URL';
const ACCEPT_QUESTION =
  "Trust the new central service? This workstation's unsent changes go to it, and then its data replaces the data here.";

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
    setFocus,
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
      setFormError(`Not saved: ${NOT_INSTALL_ADMIN}`);
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
  const accept = useMutation({ mutationFn: () => acceptNewCentral(api) });

  const onSubmit = handleSubmit(async (body) => {
    setFormError(null);
    setSaved(null);
    // A secret typed for one central is never sent to another without being typed again.
    if (body.device_secret === '' && view?.central_url && body.central_url !== view.central_url) {
      setError('device_secret', { message: SECRET_FOR_NEW_URL });
      setFocus('device_secret');
      return;
    }
    try {
      showAnswer(await save.mutateAsync(body));
    } catch (error) {
      showRefusal(error);
    }
  });
  /** Stop and Accept change what this workstation trusts, so each asks `question` first. */
  const askThen = async (
    question: string,
    run: () => Promise<{ message: string; data: SyncSettingsView }>,
  ) => {
    if (!window.confirm(question)) return;
    setFormError(null);
    setSaved(null);
    try {
      showAnswer(await run());
    } catch (error) {
      showRefusal(error);
    }
  };
  const onStop = () => askThen(STOP_QUESTION, () => clear.mutateAsync());
  const onAccept = () => askThen(ACCEPT_QUESTION, () => accept.mutateAsync());

  const forbidden = isApiError(current.error) && current.error.status === 403;
  const locked = !view || view.source === 'flags' || !view.can_change;
  const busy = isSubmitting || clear.isPending || accept.isPending;
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
      {view?.central_changed ? (
        <div className="form-error" role="alert">
          <p>
            Not syncing: the central service is not the one this workstation synced with (its
            database was replaced, or the URL now leads elsewhere). Nothing is sent to it until an
            admin of every facility here trusts it.
          </p>
          {view.can_change ? (
            <button
              type="button"
              className="button"
              disabled={busy}
              onClick={() => void onAccept()}
            >
              {accept.isPending ? 'Trusting…' : 'Trust the new central service'}
            </button>
          ) : null}
        </div>
      ) : null}
      {view &&
      !view.can_change &&
      view.problem !== SYNC_NOT_ON_POSTGRES &&
      view.source !== 'flags' ? (
        <p role="status">{NOT_INSTALL_ADMIN}</p>
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
