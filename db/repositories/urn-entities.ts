/** Master data looked up by the URNs of URN-based events (POST /Integration/JSON). */
import { Op } from 'sequelize';
import type { KnownEntities, referencedUrns } from '../../domain/json-events';
import { Location, Product, TradePartner } from '../models';

type Referenced = ReturnType<typeof referencedUrns>;

/** The row a URN names: by its urn, else by an external id equal to the URN (or to the given alternative). */
function byUrn<R extends { urn: string; externalId: string | null }>(
  rows: R[],
  urn: string,
  alternative?: string | null,
): R | undefined {
  return (
    rows.find((r) => r.urn === urn) ??
    rows.find((r) => r.externalId === urn) ??
    (alternative ? rows.find((r) => r.externalId === alternative) : undefined)
  );
}

/** What the account already has under each referenced URN: one query per kind. */
export async function findKnownEntities(accountId: string, refs: Referenced): Promise<KnownEntities> {
  const partnerKeys = [
    ...refs.tradePartners.map((p) => p.urn),
    ...refs.tradePartners.flatMap((p) => (p.id ? [p.id] : [])),
  ];
  const [products, locations, partners] = await Promise.all([
    Product.findAll({ where: { accountId, [Op.or]: [{ urn: refs.products }, { externalId: refs.products }] } }),
    Location.findAll({ where: { accountId, [Op.or]: [{ urn: refs.locations }, { externalId: refs.locations }] } }),
    TradePartner.findAll({ where: { accountId, [Op.or]: [{ urn: partnerKeys }, { externalId: partnerKeys }] } }),
  ]);
  const found = <T>(urns: string[], lookup: (urn: string) => T | undefined) =>
    new Map(
      urns.flatMap((urn) => {
        const value = lookup(urn);
        return value ? [[urn, value] as const] : [];
      }),
    );
  return {
    products: found(refs.products, (urn) => {
      const row = byUrn(products, urn);
      return row && { externalId: row.externalId, unit: row.unitOfMeasure };
    }),
    locations: found(refs.locations, (urn) => {
      const row = byUrn(locations, urn);
      return row && { externalId: row.externalId };
    }),
    tradePartners: found(
      refs.tradePartners.map((p) => p.urn),
      (urn) => {
        const row = byUrn(partners, urn, refs.tradePartners.find((p) => p.urn === urn)?.id);
        return row && { externalId: row.externalId, name: row.name, connectionType: row.connectionType };
      },
    ),
  };
}

/** The rows a finished batch stored or reused, by external id, for the response. */
export async function findByExternalIds(
  accountId: string,
  ids: { products: string[]; locations: string[]; tradePartners: string[] },
) {
  const [products, locations, tradePartners] = await Promise.all([
    Product.findAll({ where: { accountId, externalId: ids.products } }),
    Location.findAll({ where: { accountId, externalId: ids.locations } }),
    TradePartner.findAll({ where: { accountId, externalId: ids.tradePartners } }),
  ]);
  const index = <R extends { externalId: string | null }>(rows: R[]) => new Map(rows.map((r) => [r.externalId!, r]));
  return { products: index(products), locations: index(locations), tradePartners: index(tradePartners) };
}
