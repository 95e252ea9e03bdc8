import { useEffect, useRef, useState } from 'react';
import type { Chargeback } from '../../../../shared/claims';
import { describeError } from '../../api/ApiError';
import { disputePacketPath, downloadFile, type DownloadProgress } from '../../api/claims';
import { useAuth } from '../../auth/AuthContext';
import { saveBlob } from '../../components/saveBlob';
import { useAnnounce } from '../../status/StatusContext';
import { packetFileName } from './chargebackRules';

function progressText(progress: DownloadProgress): string {
  if (progress.phase === 'building') return 'Building the packet…';
  return progress.share === null
    ? 'Downloading…'
    : `Downloading… ${Math.round(progress.share * 100)}%`;
}

/**
 * Downloads a chargeback's dispute packet (a zip the service builds on request) with the
 * session's token, showing progress while it is built and received.
 */
export function DisputePacketButton({ chargeback }: { chargeback: Chargeback }) {
  const { session, expireSession } = useAuth();
  const announce = useAnnounce();
  const [progress, setProgress] = useState<DownloadProgress | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const running = useRef<AbortController | null>(null);
  // Leaving the screen stops a download in flight.
  useEffect(() => () => running.current?.abort(), []);

  const token = session?.token ?? '';
  const download = async () => {
    setFailure(null);
    const controller = new AbortController();
    running.current = controller;
    try {
      const file = await downloadFile(
        disputePacketPath(chargeback.id),
        token,
        setProgress,
        () => expireSession(token),
        controller.signal,
      );
      const name = file.fileName ?? packetFileName(chargeback.chargeback_id);
      saveBlob(file.blob, name);
      announce(`Dispute packet saved as ${name}.`);
    } catch (error) {
      if (!controller.signal.aborted) {
        setFailure(`Could not build the packet: ${describeError(error)}`);
      }
    } finally {
      running.current = null;
      setProgress(null);
    }
  };

  return (
    <div className="chargebacks-packet">
      <button
        type="button"
        className="button"
        disabled={progress !== null}
        aria-label={`Dispute packet for ${chargeback.chargeback_id}`}
        onClick={() => void download()}
      >
        Dispute packet
      </button>
      {progress ? (
        <span className="chargebacks-packet-progress" role="status">
          {progressText(progress)}
          <progress
            aria-label={`Dispute packet for ${chargeback.chargeback_id}`}
            {...(progress.phase === 'receiving' && progress.share !== null
              ? { value: progress.share, max: 1 }
              : {})}
          />
        </span>
      ) : null}
      {failure ? (
        <span className="field-error" role="alert">
          {failure}
        </span>
      ) : null}
    </div>
  );
}
