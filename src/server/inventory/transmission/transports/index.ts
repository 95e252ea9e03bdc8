/** Delivers one outbound document over its connection's transport, with retries. */
import { redactUrl, redactUrlsInText } from '../redact-url';
import { runWithRetry, type Attempt } from '../retry';
import type { DeliveryOutcome, DeliveryPolicy, OutboundDocument, TransportConfig } from '../types';
import { failure } from './failure';
import { attemptFile } from './file';
import { attemptHttp } from './http';
import { attemptSftp } from './sftp';

export interface DeliverContext {
  /** Base for relative `file` transport directories. */
  dataDir: string;
  policy: DeliveryPolicy;
  /** Injectable for tests; defaults to a real timer. */
  sleep?: (ms: number) => Promise<void>;
  /** Injectable for tests; defaults to Date.now. */
  now?: () => number;
}

/** Never throws: every problem, including a bad configuration, becomes a failed outcome. */
export async function deliver(
  transport: TransportConfig,
  doc: OutboundDocument,
  ctx: DeliverContext,
): Promise<DeliveryOutcome> {
  try {
    const outcome = await runWithRetry(attemptFor(transport, doc, ctx), {
      policy: ctx.policy,
      sleep: ctx.sleep,
      now: ctx.now,
    });
    return withoutUrlSecrets(outcome);
  } catch (err) {
    // runWithRetry already contains attempt errors; reaching here means a bug, still no throw.
    const text = `EINTERNAL: ${err instanceof Error ? err.message : String(err)}`;
    return { success: false, error: redactUrlsInText(text), retryable: false, attempts: [] };
  }
}

/** Outcomes are logged and stored, so credentials in URLs (user-info, query) go no further. */
function withoutUrlSecrets(outcome: DeliveryOutcome): DeliveryOutcome {
  const redactError = (error: string | null) => (error === null ? null : redactUrlsInText(error));
  return {
    ...outcome,
    error: redactError(outcome.error),
    attempts: outcome.attempts.map((attempt) => ({
      ...attempt,
      requestUrl: redactUrl(attempt.requestUrl),
      error: redactError(attempt.error),
    })),
  };
}

function attemptFor(
  transport: TransportConfig,
  doc: OutboundDocument,
  ctx: DeliverContext,
): Attempt {
  switch (transport.type) {
    case 'http':
      return (timeoutMs) => attemptHttp(transport, doc, timeoutMs);
    case 'sftp':
      return (timeoutMs) => attemptSftp(transport, doc, timeoutMs);
    case 'file':
      // Local writes cannot be cancelled midway, so the file transport ignores the timeout.
      return () => attemptFile(transport, doc, ctx.dataDir);
    default: {
      // Settings come from stored JSON, so an unknown type is possible at runtime.
      const type = (transport as { type?: unknown }).type;
      return async () =>
        failure('', `EINVAL: unknown transport type ${JSON.stringify(type)}`, false);
    }
  }
}
