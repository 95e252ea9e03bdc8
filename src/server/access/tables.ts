import type { ColumnType } from 'kysely';

/** Tables of access: Kysely row types (timestamps are ISO 8601 UTC strings; JSON columns are TEXT). */
export interface OrganizationsTable {
  id: string;
  name: string;
}

export interface FacilitiesTable {
  id: string;
  organization_id: string;
  name: string;
  external_facility_code: string;
}

export interface BrandsTable {
  id: string;
  name: string;
  external_brand_code: string | null;
  /** GS1 company prefix (7-10 digits) for the SSCCs of this brand's cartons and pallets. */
  gs1_company_prefix: string | null;
}

export interface RetailersTable {
  id: string;
  name: string;
}

export interface BrandFacilitiesTable {
  brand_id: string;
  facility_id: string;
}

export interface UsersTable {
  id: string;
  email: string;
  password_hash: string;
  brand_id: string | null;
  /** The seed source (e.g. `demo:<digest>`) whose password the hash was made from or checked against. */
  seed_source: ColumnType<string | null, string | null | undefined, string | null>;
}

export interface UserFacilitiesTable {
  user_id: string;
  facility_id: string;
}

export interface UserAdminTable {
  user_id: string;
  brand_id: string;
  facility_id: string;
}

export interface SignInFailuresTable {
  email: string;
  /** Attempts counted (before the password check) since the last success. */
  failures: number;
  /** Epoch ms of the last counted attempt. */
  last_attempt_at: number;
  /** Epoch ms until which attempts are refused without checking the password. */
  locked_until: number | null;
}

export interface AccessTables {
  organizations: OrganizationsTable;
  facilities: FacilitiesTable;
  brands: BrandsTable;
  retailers: RetailersTable;
  brand_facilities: BrandFacilitiesTable;
  users: UsersTable;
  user_facilities: UserFacilitiesTable;
  user_admin: UserAdminTable;
  sign_in_failures: SignInFailuresTable;
}
