/** Products and locations from an EPCIS document's master data (epcisHeader.epcisMasterData), created or updated by GTIN and GLN. */
import { isDeepStrictEqual } from 'node:util';
import type { Sequelize, Transaction } from 'sequelize';
import { locationDigitalLink, tradeItemDigitalLink } from '../../domain/epcis/identifiers';
import type { EpcisLocationData, EpcisMasterData, EpcisProductData } from '../../domain/epcis/master-data';
import {
  addressFromPayload,
  mergeAddress,
  vesselFromPayload,
  type TradePartnerPayload,
} from '../../domain/master-data';
import { normaliseUnit } from '../../domain/units';
import { Location, Product } from '../models';
import { rowOf } from '../sql';
import { findOrCreateTradePartner, type AccountRef } from './master-data';

export interface MasterDataChange {
  /** The product's or location's id in this account. */
  id: string;
  /** The GTIN or GLN (with `/254/extension` for a sub-location) the document named it by. */
  key: string;
  change: 'created' | 'updated';
  /** The fields the document set (`name`, `address`, `vessel`, `captainsName`). */
  fields: string[];
}

export type MasterDataChanges = Record<'products' | 'locations', MasterDataChange[]>;

/** What a new product is created with when the document's events say it: its unit and identifier type. */
export type ProductDefaults = ReadonlyMap<string, { unit: string; identifierType: 'Lot' | 'Serial' }>;

const lastByKey = <T>(items: T[], key: (item: T) => string): T[] => [
  ...new Map(items.map((item) => [key(item), item])).values(),
];

async function applyProduct(
  account: AccountRef,
  data: EpcisProductData,
  defaults: ProductDefaults,
  transaction: Transaction,
  sequelize: Sequelize,
): Promise<MasterDataChange | null> {
  const key = data.gtin ?? data.uri!;
  const id = data.gtin ? tradeItemDigitalLink({ gtin: data.gtin }) : key;
  const existing = await rowOf(sequelize, transaction)<{ id: string }>(
    data.gtin
      ? // By GTIN, or by the id this would create it under (a product of that id without the GTIN is the same one).
        `SELECT id FROM products WHERE account_id = $1 AND external_id IS NOT NULL AND (lpad(gtin, 14, '0') = $2 OR external_id = $3 OR urn = $3)
          ORDER BY (lpad(gtin, 14, '0') = $2) IS TRUE DESC, seq LIMIT 1`
      : `SELECT id FROM products WHERE account_id = $1 AND (external_id = $2 OR urn = $2) AND external_id IS NOT NULL ORDER BY external_id = $2 DESC, seq LIMIT 1`,
    data.gtin ? [account.id, key, id] : [account.id, key],
  );
  if (existing) {
    const row = (await Product.findByPk(existing.id, { transaction }))!;
    if (data.name === undefined || data.name === row.name) return null;
    await row.update({ name: data.name }, { transaction });
    return { id: row.externalId!, key, change: 'updated', fields: ['name'] };
  }
  const defaultsOf = (data.gtin && defaults.get(data.gtin)) || { unit: 'EA', identifierType: 'Lot' as const };
  await Product.create(
    {
      accountId: account.id,
      externalId: id,
      urn: id,
      name: data.name ?? (data.gtin ? `GTIN ${data.gtin}` : key),
      unitOfMeasure: normaliseUnit(defaultsOf.unit) ?? 'EA',
      unitQuantity: null,
      unitDescriptor: null,
      // An EPCIS client says nothing about sharing: the product discloses the least until edited.
      sharingPolicy: 'Restricted',
      identifierType: defaultsOf.identifierType,
      gtin: data.gtin ?? null,
      plu: null,
      masterData: [],
    },
    { transaction },
  );
  return { id, key, change: 'created', fields: data.name !== undefined ? ['name'] : [] };
}

const definedOnly = <T extends object>(value: T): Partial<T> =>
  Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;

async function applyLocation(
  account: AccountRef,
  data: EpcisLocationData,
  self: TradePartnerPayload,
  urnDomain: string,
  transaction: Transaction,
  sequelize: Sequelize,
): Promise<MasterDataChange | null> {
  const key =
    data.gln === undefined ? data.uri! : data.extension !== undefined ? `${data.gln}/254/${data.extension}` : data.gln;
  const id =
    data.gln !== undefined
      ? locationDigitalLink({ gln: data.gln, ...(data.extension !== undefined ? { extension: data.extension } : {}) })
      : key;
  const existing = await rowOf(sequelize, transaction)<{ id: string }>(
    data.gln !== undefined
      ? `SELECT id FROM locations WHERE account_id = $1 AND external_id IS NOT NULL
            AND ((gln = $2 AND coalesce(nullif(extension, '0'), '') = $3) OR external_id = $4 OR urn = $4)
          ORDER BY (gln = $2) IS TRUE DESC, seq LIMIT 1`
      : `SELECT id FROM locations WHERE account_id = $1 AND (external_id = $2 OR urn = $2) AND external_id IS NOT NULL ORDER BY external_id = $2 DESC, seq LIMIT 1`,
    data.gln !== undefined ? [account.id, data.gln, data.extension ?? '', id] : [account.id, key],
  );
  const hasAddress = Object.keys(data.address).length > 0;
  const hasVessel = Object.keys(data.vessel).length > 0;
  if (existing) {
    const row = (await Location.findByPk(existing.id, { transaction }))!;
    const changes: Partial<Pick<Location, 'name' | 'address' | 'vessel' | 'captainsName'>> = {};
    if (data.name !== undefined && data.name !== row.name) changes.name = data.name;
    if (hasAddress) {
      const address = addressFromPayload(mergeAddress(row.address, data.address));
      if (!isDeepStrictEqual(address, row.address)) changes.address = address;
    }
    if (hasVessel) {
      const stored = row.vessel ?? vesselFromPayload({})!;
      const vessel = { ...stored, ...definedOnly(vesselFromPayload(data.vessel)!) };
      if (!isDeepStrictEqual(vessel, row.vessel)) changes.vessel = vessel;
    }
    if (data.captainsName !== undefined && data.captainsName !== row.captainsName)
      changes.captainsName = data.captainsName;
    if (!Object.keys(changes).length) return null;
    await row.update(changes, { transaction });
    return { id: row.externalId!, key, change: 'updated', fields: Object.keys(changes) };
  }
  const partner = await findOrCreateTradePartner(account, self, urnDomain, transaction);
  await Location.create(
    {
      accountId: account.id,
      tradePartnerId: partner.row.id,
      externalId: id,
      urn: id,
      name:
        data.name ??
        (data.gln !== undefined
          ? `GLN ${data.gln}${data.extension !== undefined ? ` ext ${data.extension}` : ''}`
          : key),
      gln: data.gln ?? null,
      duns: null,
      dunsPlus4: null,
      extension: data.extension ?? null,
      captainsName: data.captainsName ?? null,
      address: hasAddress ? addressFromPayload(data.address) : null,
      contact: null,
      vessel: hasVessel ? vesselFromPayload(data.vessel) : null,
      foodFacilityRegistrationNumber: null,
      locationType: null,
    },
    { transaction },
  );
  const fields = [
    ...(data.name !== undefined ? ['name'] : []),
    ...(hasAddress ? ['address'] : []),
    ...(hasVessel ? ['vessel'] : []),
    ...(data.captainsName !== undefined ? ['captainsName'] : []),
  ];
  return { id, key, change: 'created', fields };
}

/**
 * Creates the products and locations the master data names and the account does not have, updates the
 * ones it has with what the document says (nothing else changes), in the capture's transaction.
 */
export async function applyEpcisMasterData(
  sequelize: Sequelize,
  account: AccountRef,
  data: EpcisMasterData,
  {
    self,
    urnDomain,
    productDefaults,
  }: { self: TradePartnerPayload; urnDomain: string; productDefaults: ProductDefaults },
  /** The capture's: its master data commits with its batch, or not at all. */
  transaction: Transaction,
): Promise<MasterDataChanges> {
  const products: MasterDataChange[] = [];
  for (const product of lastByKey(data.products, (p) => p.gtin ?? p.uri!)) {
    const change = await applyProduct(account, product, productDefaults, transaction, sequelize);
    if (change) products.push(change);
  }
  const locations: MasterDataChange[] = [];
  for (const location of lastByKey(data.locations, (l) =>
    l.gln !== undefined ? `${l.gln}/${l.extension ?? ''}` : l.uri!,
  )) {
    const change = await applyLocation(account, location, self, urnDomain, transaction, sequelize);
    if (change) locations.push(change);
  }
  return { products, locations };
}
