/** The account's products and locations by the external ids a batch names: one query each, whatever the batch size. */
import type { GdstVessel } from '../../domain/gdst';
import type { Query } from '../sql';

export interface ProductRow {
  id: string;
  externalId: string;
  /** Serial products count one per instance. */
  serial: boolean;
}

export async function productsByExternalId(
  query: Query,
  accountId: string,
  externalIds: readonly string[],
): Promise<ProductRow[]> {
  return query<ProductRow>(
    `SELECT id, external_id AS "externalId", identifier_type = 'Serial' AS serial FROM products
      WHERE account_id = $1 AND external_id = ANY($2::text[])`,
    [accountId, [...externalIds]],
  );
}

export async function locationsByExternalId(
  query: Query,
  accountId: string,
  externalIds: readonly string[],
): Promise<{ id: string; externalId: string; vessel: GdstVessel | null }[]> {
  return query(
    'SELECT id, external_id AS "externalId", vessel FROM locations WHERE account_id = $1 AND external_id = ANY($2::text[])',
    [accountId, [...externalIds]],
  );
}
