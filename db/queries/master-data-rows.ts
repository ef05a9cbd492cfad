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
): Promise<{ id: string; externalId: string }[]> {
  const rows = await query<{ id: string; external_id: string }>(
    'SELECT id, external_id FROM locations WHERE account_id = $1 AND external_id = ANY($2::text[])',
    [accountId, [...externalIds]],
  );
  return rows.map((row) => ({ id: row.id, externalId: row.external_id }));
}

/** The stored vessel of each of these locations that is one, by location id. */
export async function locationVessels(query: Query, locationIds: readonly string[]): Promise<Map<string, GdstVessel>> {
  if (!locationIds.length) return new Map();
  const rows = await query<{ id: string; vessel: GdstVessel }>(
    'SELECT id, vessel FROM locations WHERE id = ANY($1::uuid[]) AND vessel IS NOT NULL',
    [[...locationIds]],
  );
  return new Map(rows.map((row) => [row.id, row.vessel]));
}
