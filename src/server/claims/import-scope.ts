import { hasAdminGrantInOrganization } from '../access';
import { retailerLinkedToBrands } from './queries';
import type { ClaimsImportBody, ImportProblem } from '../../shared/claims';
import type { AuthUser, ServiceContext } from '../core/context';
import { forbidden, notFound } from '../core/errors';
import type { CsvRecord, CsvTable } from './csv';
import { uuidCell } from './csv-values';
import { requireLinkedRetailer, visibleBrandIds } from './scope';

const BRAND_NOT_FOUND = 'Brand not found';

/** Why a brand cannot take an import by this user, or null when it can. */
async function brandRefusal(
  ctx: ServiceContext,
  user: AuthUser,
  brandId: string,
  visible: readonly string[],
): Promise<'not_found' | 'forbidden' | null> {
  if (!visible.includes(brandId)) return 'not_found';
  const admin = await hasAdminGrantInOrganization(ctx.db, user, brandId, null);
  return admin ? null : 'forbidden';
}

/**
 * The brand and retailer the request names (the brand defaults to the credentials' brand). A
 * brand the user does not see answers 404 `Brand not found`; one it sees without an admin grant
 * for it at one of its facilities 403 `Unauthorized`; a retailer that brand is not and was not
 * associated with 404 `Retailer not found`. Checked before the file is read.
 */
export async function requestScope(
  ctx: ServiceContext,
  user: AuthUser,
  body: ClaimsImportBody,
): Promise<{ brandId?: string; retailerId?: string; visible: readonly string[] }> {
  const visible = await visibleBrandIds(ctx, user);
  const brandId = body.brand_id ?? user.brandId ?? undefined;
  if (brandId) {
    const refusal = await brandRefusal(ctx, user, brandId, visible);
    if (refusal === 'not_found') throw notFound(BRAND_NOT_FOUND);
    if (refusal === 'forbidden') throw forbidden();
    if (body.retailer_id) await requireLinkedRetailer(ctx, body.retailer_id, [brandId]);
  }
  return {
    ...(brandId ? { brandId } : {}),
    ...(body.retailer_id ? { retailerId: body.retailer_id } : {}),
    visible,
  };
}

type ScopeField = 'brand_id' | 'retailer_id';

/**
 * The brand and retailer of each record: its own `brand_id` / `retailer_id` cell, else the
 * request's. A cell that differs from the request's value, a missing value, a brand the user
 * cannot import for and a retailer not associated with the row's brand are row problems.
 */
export async function recordScopes<F extends string>(
  ctx: ServiceContext,
  user: AuthUser,
  scope: Awaited<ReturnType<typeof requestScope>>,
  table: CsvTable<F | ScopeField>,
  problems: ImportProblem[],
): Promise<({ brandId: string; retailerId: string } | null)[]> {
  const brandChecks = new Map<string, Promise<string | null>>();
  const retailerChecks = new Map<string, Promise<boolean>>();
  const checkBrand = (brandId: string) => {
    let check = brandChecks.get(brandId);
    if (!check) {
      check = brandRefusal(ctx, user, brandId, scope.visible).then((refusal) =>
        refusal === null
          ? null
          : refusal === 'not_found'
            ? `brand '${brandId}' not found`
            : `no admin access for brand '${brandId}'`,
      );
      brandChecks.set(brandId, check);
    }
    return check;
  };
  const checkRetailer = (brandId: string, retailerId: string) => {
    const key = `${brandId}|${retailerId}`;
    let check = retailerChecks.get(key);
    if (!check) {
      check = retailerLinkedToBrands(ctx.db, retailerId, [brandId]);
      retailerChecks.set(key, check);
    }
    return check;
  };

  const valueOf = (record: CsvRecord<F | ScopeField>, field: ScopeField, given?: string) => {
    const column = table.present.get(field) ?? field;
    const text = record.cells[field];
    if (text) {
      const cell = uuidCell(text);
      if (!cell.ok) {
        problems.push({ row: record.row, column, reason: cell.reason });
        return null;
      }
      if (given && cell.value !== given) {
        problems.push({ row: record.row, column, reason: `differs from the request's ${field}` });
        return null;
      }
      return cell.value;
    }
    if (given) return given;
    problems.push({
      row: record.row,
      column,
      reason: `is required: give ${field} in the request or a ${field} column`,
    });
    return null;
  };

  const scopes: ({ brandId: string; retailerId: string } | null)[] = [];
  for (const record of table.records) {
    const brandId = valueOf(record, 'brand_id', scope.brandId);
    const retailerId = valueOf(record, 'retailer_id', scope.retailerId);
    if (!brandId || !retailerId) {
      scopes.push(null);
      continue;
    }
    const brandProblem = await checkBrand(brandId);
    if (brandProblem) {
      problems.push({
        row: record.row,
        column: table.present.get('brand_id') ?? 'brand_id',
        reason: brandProblem,
      });
      scopes.push(null);
      continue;
    }
    if (!(await checkRetailer(brandId, retailerId))) {
      problems.push({
        row: record.row,
        column: table.present.get('retailer_id') ?? 'retailer_id',
        reason: `retailer '${retailerId}' not found for brand '${brandId}'`,
      });
      scopes.push(null);
      continue;
    }
    scopes.push({ brandId, retailerId });
  }
  return scopes;
}
