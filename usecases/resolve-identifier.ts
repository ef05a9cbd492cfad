/**
 * What an account holds under a Digital Link resolver's key: its master data as GS1 Web Vocabulary
 * JSON-LD (none for a logistic unit), or what it lacks: a product, location or party it has, or events
 * naming the lot, serial, SSCC or party. The resolver's routes present it (api/routes/resolver).
 */
import type { Sequelize } from 'sequelize';
import type { ErrorCode } from '../contract/error-catalogue';
import { eventsName, eventsNameParty, locationByKey, partyByKey, productByKey } from '../db/queries/resolver';
import {
  eventMatchOf,
  keyName,
  organizationJsonLd,
  partySpellingsOf,
  placeJsonLd,
  productJsonLd,
  type ResolvedKey,
} from '../domain/epcis/resolver';

type Lacking = Extract<
  ErrorCode,
  'unknown-product' | 'unknown-lot-or-serial' | 'unknown-location' | 'unknown-trade-partner'
>;

export type Held =
  { kind: 'held'; masterData: object | undefined } | { kind: 'unknown'; code: Lacking; detail: string };

const held = (masterData: object | undefined): Held => ({ kind: 'held', masterData });
const unknown = (code: Lacking, detail: string): Held => ({ kind: 'unknown', code, detail });

export async function heldUnder(sequelize: Sequelize, accountId: string, key: ResolvedKey): Promise<Held> {
  const match = eventMatchOf(key);
  switch (key.ai) {
    case '01': {
      const product = await productByKey(sequelize, accountId, key.gs1 ? { gtin: key.id } : { urn: key.id });
      // A GDST lot may be named by events alone; a GTIN is a product of the account first.
      if (!product && (key.gs1 || !match))
        return unknown('unknown-product', `No product with ${keyName(key)} in this account.`);
      if (match && !(await eventsName(sequelize, accountId, match.kind, match.values)))
        return unknown(
          'unknown-lot-or-serial',
          `No event of this account names ${key.lot !== undefined ? 'lot' : 'serial'} ${(key.lot ?? key.serial)!.slice(0, 100)} of ${keyName(key)}.`,
        );
      return held(
        productJsonLd(
          key,
          product && { name: product.name, unit: product.unit_of_measure, masterData: product.master_data ?? [] },
        ),
      );
    }
    case '00':
      if (!(await eventsName(sequelize, accountId, match!.kind, match!.values)))
        return unknown('unknown-lot-or-serial', `No event of this account names ${keyName(key)}.`);
      return held(undefined);
    case '414': {
      const location = await locationByKey(
        sequelize,
        accountId,
        key.gs1 ? { gln: key.id, extension: key.extension } : { urn: key.id },
      );
      if (!location) return unknown('unknown-location', `No location with ${keyName(key)} in this account.`);
      return held(
        placeJsonLd(key, {
          name: location.name,
          partyName: location.party_name,
          address: location.address,
          vessel: location.vessel,
          captainsName: location.captains_name,
        }),
      );
    }
    case '417': {
      const party = await partyByKey(sequelize, accountId, key.gs1 ? { pgln: key.id } : { urn: key.id });
      if (!party && !(await eventsNameParty(sequelize, accountId, partySpellingsOf(key))))
        return unknown('unknown-trade-partner', `No trade partner with ${keyName(key)} in this account.`);
      return held(organizationJsonLd(key, party));
    }
  }
}
