/**
 * Creating and updating an account's locations and products: POST and PUT /Integration/Locations and
 * /Products, and an import's chunk of locations or products. Each is one transaction, all or nothing:
 * a refusal names every record that could not be stored, and nothing of the request is.
 */
import type { Sequelize, Transaction } from 'sequelize';
import {
  createLocation,
  createProduct,
  findLocation,
  findProduct,
  MasterDataConflict,
  type AccountRef,
  type LocationWithPartner,
} from '../db/repositories/master-data';
import {
  locationIdOf,
  locationUpdate,
  locationUpdateIssues,
  productUpdateAttributes,
  unchangeableIssues,
  type LocationPayload,
  type LocationUpdatePayload,
  type MasterDataIssue,
  type ProductDetailsPayload,
  type ProductPayload,
} from '../domain/master-data';

export interface MasterDataDeps {
  sequelize: Sequelize;
  /** The domain of the URNs of what is created (config.urnDomain). */
  urnDomain: string;
}

/** Records that could not be stored, each named (index in the request, id, field): nothing was stored. */
export class MasterDataRefused extends Error {
  constructor(
    readonly kind: 'conflict' | 'invalid' | 'notFound',
    readonly errors: MasterDataIssue[],
    readonly validations: MasterDataIssue[] = [],
  ) {
    super(`${errors.length + validations.length} record(s) could not be stored; nothing was changed.`);
    this.name = 'MasterDataRefused';
  }
}

export type MasterDataRecords =
  { kind: 'locations'; records: readonly LocationPayload[] } | { kind: 'products'; records: readonly ProductPayload[] };

export interface CreateMasterDataInput {
  account: AccountRef;
  data: MasterDataRecords;
  /** The field path of record `index`, for the conflicts' `field` (`Locations[2]`, an import's `Record`). */
  fieldOf: (index: number) => string;
  /** What else commits with the records (an import records its chunk's outcome). */
  alsoInTransaction?: (transaction: Transaction) => Promise<void>;
}

/** Creates every record (with the trade partner each names); MasterDataRefused with every conflict, nothing created. */
export async function createMasterData(deps: MasterDataDeps, input: CreateMasterDataInput): Promise<string[]> {
  const { account, data, fieldOf } = input;
  return deps.sequelize.transaction(async (transaction) => {
    const errors: MasterDataIssue[] = [];
    const ids: string[] = [];
    for (const [index, record] of data.records.entries()) {
      try {
        const created =
          data.kind === 'locations'
            ? await createLocation(account, record as LocationPayload, deps.urnDomain, transaction, fieldOf(index))
            : await createProduct(account, record as ProductPayload, deps.urnDomain, transaction, fieldOf(index));
        ids.push(created.id);
      } catch (error) {
        if (!(error instanceof MasterDataConflict)) throw error;
        const id = data.kind === 'locations' ? locationIdOf(record as LocationPayload) : (record as ProductPayload).Id;
        errors.push({ index, id: id ?? null, field: error.field, message: error.message });
      }
    }
    // Thrown inside the transaction so that the records created so far roll back.
    if (errors.length) throw new MasterDataRefused('conflict', errors);
    await input.alsoInTransaction?.(transaction);
    return ids;
  });
}

/**
 * Updates the locations (SPEC's updatable fields; a location's trade partner never changes, its name and
 * connection type may); MasterDataRefused, `notFound` when any is missing, nothing changed.
 */
export async function updateLocations(
  deps: MasterDataDeps,
  input: { account: AccountRef; items: readonly LocationUpdatePayload[]; prefixOf: (index: number) => string },
): Promise<LocationWithPartner[]> {
  const { account, items, prefixOf } = input;
  return deps.sequelize.transaction(async (transaction) => {
    const validations: MasterDataIssue[] = [];
    const errors: MasterDataIssue[] = [];
    let missing = false;
    const results: LocationWithPartner[] = [];
    for (const [index, item] of items.entries()) {
      const prefix = prefixOf(index);
      const id = locationIdOf(item)!;
      const found = await findLocation(account.id, id, transaction);
      if (!found) {
        missing = true;
        errors.push({ index, id, field: `${prefix}.id`, message: `Location ${id} was not found.` });
        continue;
      }
      const { location, tradePartner } = found;
      const partner = item.Details.TradePartner;
      if (partner && partner.Id !== tradePartner.externalId) {
        errors.push({
          index,
          id,
          field: `${prefix}.Details.TradePartner.Id`,
          message: `Location ${id} belongs to trade partner ${tradePartner.externalId}, not ${partner.Id}; a location's trade partner never changes.`,
        });
        continue;
      }
      const isVessel = location.vessel !== null;
      const change = locationUpdate(location, item.Details, isVessel);
      const issues = [
        ...unchangeableIssues(
          { duns: location.duns, dunsPlus4: location.dunsPlus4, tradePartner },
          item.Details,
          `${prefix}.Details`,
        ),
        ...locationUpdateIssues(change, item.Details, `${prefix}.Details`, isVessel),
      ];
      if (issues.length) {
        validations.push(...issues.map((issue) => ({ index, id, ...issue })));
        continue;
      }
      await location.update(change.attributes, { transaction });
      if (partner)
        await tradePartner.update(
          {
            name: partner.Name ?? tradePartner.name,
            connectionType: partner.ConnectionType ?? tradePartner.connectionType,
          },
          { transaction },
        );
      results.push(found);
    }
    // Thrown inside the transaction, so the elements already changed roll back too.
    if (validations.length || errors.length)
      throw new MasterDataRefused(missing ? 'notFound' : 'invalid', errors, validations);
    return results;
  });
}

/** A product update: its Id, and the Details fields it changes. */
export interface ProductUpdatePayload {
  Id: string;
  Details: Partial<ProductDetailsPayload>;
}

/** Updates the products; MasterDataRefused `notFound` naming each one the account does not have, nothing changed. */
export async function updateProducts(
  deps: MasterDataDeps,
  input: { account: AccountRef; products: readonly ProductUpdatePayload[] },
): Promise<string[]> {
  const { account, products } = input;
  return deps.sequelize.transaction(async (transaction) => {
    const errors: MasterDataIssue[] = [];
    const ids: string[] = [];
    for (const [index, payload] of products.entries()) {
      const product = await findProduct(account.id, payload.Id, transaction);
      if (!product) {
        errors.push({
          index,
          id: payload.Id,
          field: `Products[${index}].Id`,
          message: `Product ${payload.Id} was not found.`,
        });
        continue;
      }
      await product.update(productUpdateAttributes(payload.Details), { transaction });
      ids.push(product.id);
    }
    if (errors.length) throw new MasterDataRefused('notFound', errors);
    return ids;
  });
}
