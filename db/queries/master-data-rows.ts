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
  const rows = await query<{ id: string; external_id: string; identifier_type: string }>(
    'SELECT id, external_id, identifier_type FROM products WHERE account_id = $1 AND external_id = ANY($2::text[])',
    [accountId, [...externalIds]],
  );
  return rows.map((row) => ({ id: row.id, externalId: row.external_id, serial: row.identifier_type === 'Serial' }));
}

export async function locationsByExternalId(
  query: Query,
  accountId: string,
  externalIds: readonly string[],
): Promise<{ id: string; externalId: string; vessel: GdstVessel | null }[]> {
  const rows = await query<{ id: string; external_id: string; vessel: GdstVessel | null }>(
    'SELECT id, external_id, vessel FROM locations WHERE account_id = $1 AND external_id = ANY($2::text[])',
    [accountId, [...externalIds]],
  );
  return rows.map((row) => ({ id: row.id, externalId: row.external_id, vessel: row.vessel }));
}
