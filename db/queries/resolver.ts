/**
 * What the Digital Link resolver looks up: the account's product by GTIN or URN, location by GLN or URN,
 * party by PGLN or URN, and whether its events name a lot, serial or logistic unit.
 */
import type { Sequelize } from 'sequelize';
import type { MasterDataEntry } from '../models/product';
import type { Address, Vessel } from '../models/location';
import { capturedMatchingSql } from '../repositories/epcis-originals';
import { matchKey } from '../../domain/epcis/match-keys';
import { queryOf } from '../sql';
import { epcisEventsQuery, withMatchCandidates, type MatchKind } from './epcis-events';

export interface ResolvedProduct {
  external_id: string;
  name: string;
  gtin: string;
  unit_of_measure: string;
  master_data: MasterDataEntry[];
}

export interface ResolvedLocation {
  external_id: string;
  name: string;
  gln: string;
  address: Address | null;
  vessel: Vessel | null;
  captains_name: string | null;
  party_name: string;
}

export interface ResolvedParty {
  name: string;
  pgln: string | null;
}

/** The product of a GTIN-14, or of a URN (a GDST product class: the id or URN it was created under). */
export async function productByKey(
  sequelize: Sequelize,
  accountId: string,
  key: { gtin: string } | { urn: string },
): Promise<ResolvedProduct | undefined> {
  const [row] = await queryOf(sequelize)<ResolvedProduct>(
    `SELECT external_id, name, lpad(gtin, 14, '0') AS gtin, unit_of_measure, master_data FROM products
      WHERE account_id = $1 AND external_id IS NOT NULL
        AND ${'gtin' in key ? `lpad(gtin, 14, '0') = $2` : '(urn = $2 OR external_id = $2)'} ORDER BY seq LIMIT 1`,
    [accountId, 'gtin' in key ? key.gtin : key.urn],
  );
  return row;
}

/**
 * Whether some event of the account matches MATCH_<kind> for one of these identifiers: what the EPCIS
 * query the resolver links to would find, captured events and our own alike.
 */
export async function eventsName(
  sequelize: Sequelize,
  accountId: string,
  kind: MatchKind,
  identifiers: string[],
): Promise<boolean> {
  const { sql, bind } = epcisEventsQuery(
    await withMatchCandidates(sequelize, { accountId, match: { [kind]: identifiers }, limit: 1 }),
  );
  const [row] = await queryOf(sequelize)<{ found: boolean }>(`SELECT EXISTS (${sql}) AS found`, bind);
  return row.found;
}

/**
 * The location of a GLN (the GLN itself before its sub-locations; with an extension, that sub-location,
 * `0` being the GLN itself), or of a URN (the id or URN it was created under).
 */
export async function locationByKey(
  sequelize: Sequelize,
  accountId: string,
  key: { gln: string; extension?: string } | { urn: string },
): Promise<ResolvedLocation | undefined> {
  const extension =
    'gln' in key && key.extension !== undefined ? (key.extension === '0' ? '' : key.extension) : undefined;
  const [row] = await queryOf(sequelize)<ResolvedLocation>(
    `SELECT l.external_id, l.name, l.gln, l.address, l.vessel, l.captains_name, tp.name AS party_name FROM locations l JOIN trade_partners tp ON tp.id = l.trade_partner_id
      WHERE l.account_id = $1 AND l.external_id IS NOT NULL
        AND ${'gln' in key ? 'l.gln = $2' : '(l.urn = $2 OR l.external_id = $2)'}
        ${extension !== undefined ? `AND coalesce(nullif(l.extension, '0'), '') = $3` : ''}
      ORDER BY coalesce(nullif(l.extension, '0'), '') = '' DESC, l.seq LIMIT 1`,
    [accountId, 'gln' in key ? key.gln : key.urn, ...(extension !== undefined ? [extension] : [])],
  );
  return row;
}

/** The trade partner of a PGLN or URN. */
export async function partyByKey(
  sequelize: Sequelize,
  accountId: string,
  key: { pgln: string } | { urn: string },
): Promise<ResolvedParty | undefined> {
  const [row] = await queryOf(sequelize)<ResolvedParty>(
    `SELECT name, pgln FROM trade_partners WHERE account_id = $1 AND ${'pgln' in key ? 'pgln' : 'urn'} = $2 ORDER BY created_at LIMIT 1`,
    [accountId, 'pgln' in key ? key.pgln : key.urn],
  );
  return row;
}

/**
 * Whether a captured event of the account names this party, in one of its spellings: as a source or
 * destination (CBV's owning or possessing party), or as GDST's product owner or information provider (in
 * whatever prefix its document gave them). By their match keys (domain/epcis/match-keys.ts).
 */
export async function eventsNameParty(sequelize: Sequelize, accountId: string, spellings: string[]): Promise<boolean> {
  const [row] = await queryOf(sequelize)<{ found: boolean }>(
    `SELECT EXISTS (${capturedMatchingSql('$1', '$2')}) AS found`,
    [accountId, spellings.map((party) => matchKey('party', party))],
  );
  return row.found;
}
