import {
  DEFAULT_LABEL_PRINTER_PORT,
  labelPrinterBodySchema,
  type LabelPrinterBody,
  type LabelPrinterSetting,
} from '../../shared/documents';
import { readSetting, writeSetting } from './queries';
import type { AuthUser, ServiceContext } from '../core/context';
import { requireInstallAdmin } from '../access';

/** The workstation's label printer lives in app_settings under this key. */
export const LABEL_PRINTER_KEY = 'label_printer';

/** The printer setting; host null until someone sets it. Every signed-in user may read it. */
export async function labelPrinterSetting(ctx: ServiceContext): Promise<LabelPrinterSetting> {
  const row = await readSetting(ctx.db, LABEL_PRINTER_KEY);
  if (!row) return { host: null, port: DEFAULT_LABEL_PRINTER_PORT, updated_at: null };
  // Stored by setLabelPrinter after the same validation; parsed again so a hand-edited row
  // cannot send labels to an address that is not one.
  const parsed = labelPrinterBodySchema.safeParse(parseJson(row.value_json));
  if (!parsed.success)
    return { host: null, port: DEFAULT_LABEL_PRINTER_PORT, updated_at: row.updated_at };
  return { ...parsed.data, updated_at: row.updated_at };
}

/** A hand-edited value that is not JSON reads as no printer, not as a 500 on every print. */
function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * Sets the label printer. The printer serves the whole workstation (every tenant's labels go to
 * it, and the service connects wherever it points), so it is an install admin's setting
 * (domain/install-admin.ts).
 */
export async function setLabelPrinter(
  ctx: ServiceContext,
  user: AuthUser,
  body: LabelPrinterBody,
): Promise<LabelPrinterSetting> {
  await requireInstallAdmin(ctx, user);
  const at = ctx.clock.now().toISOString();
  const value = { host: body.host, port: body.port };
  await ctx.db
    .transaction()
    .execute((trx) => writeSetting(trx, LABEL_PRINTER_KEY, JSON.stringify(value), at));
  return { ...value, updated_at: at };
}

/** Removes the label printer (an install admin's too): labels are then saved as PDFs. */
export async function removeLabelPrinter(
  ctx: ServiceContext,
  user: AuthUser,
): Promise<LabelPrinterSetting> {
  await requireInstallAdmin(ctx, user);
  await ctx.db.deleteFrom('app_settings').where('key', '=', LABEL_PRINTER_KEY).execute();
  return { host: null, port: DEFAULT_LABEL_PRINTER_PORT, updated_at: null };
}
