import type { Kysely } from 'kysely';
import type { Database } from './schema';

/** The query builder every feature writes through; its own module so types need not load the connection code. */
export type Db = Kysely<Database>;
