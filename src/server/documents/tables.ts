/**
 * Tables of the documents feature (./migrations). Local: sync never replicates them
 * (sync/synced-tables.ts); each install counts its own users' prints.
 */

/** One label print admitted by the print rate (./print-rate.ts): kept for a minute. */
export interface PrintAdmissionsTable {
  id: string;
  user_id: string;
  /** Epoch ms of the service clock when the print was admitted. */
  admitted_at: number;
}

export interface DocumentsTables {
  print_admissions: PrintAdmissionsTable;
}
