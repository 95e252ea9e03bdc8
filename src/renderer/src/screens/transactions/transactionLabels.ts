import type { Transaction } from '../../../../shared/transactions';

type ExecutionStatus = Transaction['execution_status'];

/**
 * Execution statuses in a clerk's words; the code (`RETRY`) stays in the cell's title and in the
 * details, where an integrator looks for it.
 */
export const STATUS_LABELS: Record<ExecutionStatus, string> = {
  SUCCESS: 'Sent',
  FAILURE: 'Failed',
  RETRY: 'Will retry',
  PENDING: 'Waiting',
  SKIP: 'Skipped',
};

export function statusLabel(status: ExecutionStatus): string {
  return STATUS_LABELS[status];
}
