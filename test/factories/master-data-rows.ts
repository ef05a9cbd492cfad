import { randomBytes } from 'node:crypto';
import { Location, Product, TradePartner } from '../../db/models';
import { models } from '../helpers/db';

/*
 * Master-data rows written straight through the models, so tests of other resources (documents, events)
 * do not depend on the master-data endpoints. URNs follow DESIGN.md's shapes under the default domain.
 */
const suffix = () => randomBytes(4).toString('hex');

export async function buildTradePartner(accountId: string, externalId = `TP-${suffix()}`): Promise<TradePartner> {
  models();
  return TradePartner.create({
    accountId,
    externalId,
    urn: `urn:gdst:traceability.local:party:${accountId}.${externalId}`,
    name: `Trade partner ${externalId}`,
    connectionType: 'SUPPLIER',
    duns: null,
    pgln: null,
  });
}

export async function buildLocation(
  accountId: string,
  externalId = `LOC-${suffix()}`,
  tradePartner?: TradePartner,
): Promise<Location> {
  models();
  const partner = tradePartner ?? (await buildTradePartner(accountId));
  return Location.create({
    accountId,
    tradePartnerId: partner.id,
    externalId,
    urn: `urn:gdst:traceability.local:location:loc:${accountId}.${externalId}`,
    name: `Location ${externalId}`,
    gln: null,
    duns: null,
    dunsPlus4: null,
    extension: null,
    captainsName: null,
    address: null,
    contact: null,
    vessel: null,
    foodFacilityRegistrationNumber: null,
    locationType: null,
  });
}

export async function buildProduct(accountId: string, externalId = `PRD-${suffix()}`): Promise<Product> {
  models();
  return Product.create({
    accountId,
    externalId,
    urn: `urn:gdst:traceability.local:product:class:${accountId}.${externalId}`,
    name: `Product ${externalId}`,
    unitOfMeasure: 'KGM',
    unitQuantity: null,
    unitDescriptor: null,
    sharingPolicy: 'Open',
    identifierType: 'Lot',
    gtin: null,
    plu: null,
  });
}
