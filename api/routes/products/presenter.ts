import type { Product } from '../../../db/models';

/** A product as the list and read endpoints answer it; NUMERIC unit quantity as a JSON number. */
export function presentProduct(product: Product) {
  return {
    id: product.externalId,
    urn: product.urn,
    details: {
      name: product.name,
      simpleUnitOfMeasurement: product.unitOfMeasure,
      unitQuantity: product.unitQuantity === null ? null : Number(product.unitQuantity),
      unitDescriptor: product.unitDescriptor,
      sharingPolicy: product.sharingPolicy,
      productIdentifierType: product.identifierType,
      gtin: product.gtin,
      plu: product.plu,
      masterData: product.masterData,
    },
  };
}
