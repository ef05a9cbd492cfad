/**
 * The product endpoints' answers, what presenter.ts and the handlers produce; what a request may carry
 * is domain/schemas/products.ts.
 */
import { closed, closedObject } from '../openapi/schema';
import { detailsProperties } from '../../domain/schemas/products';
import { pageBodySchema } from '../paging';
import { answeredEnum, batchResults, fourKeyBody } from '../master-data/schema';
import { nullableText } from '../../domain/schemas/text';

/** A product as GET answers it (presenter.ts). */
export const productResponse = {
  type: 'object',
  description: 'A product of the account.',
  ...closed({
    id: nullableText('The caller-chosen product id; null for a product created without one.', 'SKU-1'),
    urn: { type: 'string', description: 'Service-generated URN of the product; events refer to it.' },
    details: closedObject({
      name: { type: 'string', description: 'Human-readable name.', example: 'Atlantic cod fillet' },
      simpleUnitOfMeasurement: {
        type: 'string',
        description: 'Unit of measure as a UN/ECE Recommendation 20 code (an alias sent is stored as its code).',
        example: 'KGM',
      },
      unitQuantity: {
        type: ['number', 'null'],
        description: 'Quantity of the simple unit in one commercial unit, as a JSON number; null when not sent.',
        example: 2,
      },
      unitDescriptor: {
        type: ['string', 'null'],
        enum: [...detailsProperties.UnitDescriptor.enum, null],
        description: 'The commercial unit; null when not sent.',
      },
      sharingPolicy: answeredEnum(detailsProperties.SharingPolicy),
      productIdentifierType: answeredEnum(detailsProperties.ProductIdentifierType),
      gtin: nullableText('Global Trade Item Number.', '07038010000010'),
      plu: nullableText('Price Lookup Code.'),
      masterData: {
        type: 'array',
        description: 'Custom name/value entries; empty when none were sent.',
        items: closedObject({ name: { type: 'string' }, namespace: { type: 'string' }, value: { type: 'string' } }),
      },
    }),
  }),
};

export const productPageResponse = pageBodySchema(productResponse, 'One page of the account’s products.');

export const createProductsResponse = fourKeyBody(batchResults('Created', 'product'), 'All products were created.');

export const updateProductsResponse = fourKeyBody(batchResults('Updated', 'product'), 'All products were updated.');
