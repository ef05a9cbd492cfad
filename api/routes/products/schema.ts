/**
 * Request schemas of the product endpoints, the one source of truth for what a request may carry.
 * Units are checked and normalised in domain/ (units.ts), where the accepted list lives.
 */
import { withLimits } from '../../limits';
import { closed } from '../../unknown-fields';
import { pageBodySchema } from '../../paging';
import { batchResults, fourKeyBody } from '../master-data/schema';
import { text, nullableText } from '../../openapi/schema';

const detailsProperties = {
  Name: text('Human-readable name.', 'Atlantic cod fillet'),
  SimpleUnitOfMeasurement: text(
    'Unit of measure: a UN/ECE Recommendation 20 code (KGM, LBR, ...) or a common alias (kg, lbs, ...); stored as the code.',
    'KGM',
  ),
  UnitQuantity: {
    type: 'number',
    exclusiveMinimum: 0,
    description: 'Quantity of the simple unit in one commercial unit (greater than 0).',
    example: 2,
  },
  UnitDescriptor: {
    type: 'string',
    enum: ['Cases', 'Units', 'Totes', 'Pallets'],
    description: 'The commercial unit UnitQuantity describes.',
    example: 'Cases',
  },
  SharingPolicy: {
    type: 'string',
    enum: ['Open', 'Restricted'],
    description: 'Open: a receiving customer sees all events of the lot. Restricted: only the ship event.',
    example: 'Open',
  },
  ProductIdentifierType: {
    type: 'string',
    enum: ['Lot', 'Serial'],
    description: 'Lot: instances identified by lot numbers. Serial: one item per serial.',
    example: 'Lot',
  },
  Gtin: text('Global Trade Item Number.', '07038010000017'),
  Plu: text('Price Lookup Code.'),
  MasterData: {
    type: 'array',
    description: 'Custom name/value entries.',
    items: {
      type: 'object',
      required: ['name', 'namespace', 'value'],
      properties: {
        name: text('Custom field name.', 'species'),
        namespace: text('`custom` for custom product data.', 'custom'),
        value: { type: 'string', description: 'Value.', example: 'Gadus morhua' },
      },
    },
  },
} as const;

const productId = text('Caller-chosen product id, unique in the account; later events refer to it.', 'SKU-1');

/** A request body of one or more products, each an Id and its Details; closed: a property not listed here is refused, naming the field (api/unknown-fields.ts). */
const productsBody = <D extends object>(description: string, listDescription: string, details: D) =>
  closed(
    withLimits({
      type: 'object',
      description,
      required: ['Products'],
      properties: {
        Products: {
          type: 'array',
          minItems: 1,
          description: listDescription,
          items: { type: 'object', required: ['Id', 'Details'], properties: { Id: productId, Details: details } },
        },
      },
    } as const),
  );

export const createProductsSchema = productsBody(
  'POST /Integration/Products: one or more products, stored all or nothing.',
  'The products to create.',
  {
    type: 'object',
    required: ['Name', 'SimpleUnitOfMeasurement', 'SharingPolicy', 'ProductIdentifierType'],
    properties: detailsProperties,
  } as const,
);

export const updateProductsSchema = productsBody(
  'PUT /Integration/Products: changes the Details of existing products; absent fields keep their stored values.',
  'The products to change, by Id.',
  {
    type: 'object',
    description: 'The fields to change; MasterData, when sent, replaces the stored list.',
    properties: detailsProperties,
  } as const,
);

/* ---- Response bodies: what presenter.ts and the handlers produce. ---- */

/** A product as GET answers it (presenter.ts). */
export const productResponse = {
  type: 'object',
  description: 'A product of the account.',
  required: ['id', 'urn', 'details'],
  properties: {
    id: nullableText('The caller-chosen product id; null for a product created without one.', 'SKU-1'),
    urn: { type: 'string', description: 'Service-generated URN of the product; events refer to it.' },
    details: {
      type: 'object',
      required: [
        'name',
        'simpleUnitOfMeasurement',
        'unitQuantity',
        'unitDescriptor',
        'sharingPolicy',
        'productIdentifierType',
        'gtin',
        'plu',
        'masterData',
      ],
      properties: {
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
        sharingPolicy: {
          type: 'string',
          enum: detailsProperties.SharingPolicy.enum,
          description: detailsProperties.SharingPolicy.description,
        },
        productIdentifierType: {
          type: 'string',
          enum: detailsProperties.ProductIdentifierType.enum,
          description: detailsProperties.ProductIdentifierType.description,
        },
        gtin: nullableText('Global Trade Item Number.', '07038010000017'),
        plu: nullableText('Price Lookup Code.'),
        masterData: {
          type: 'array',
          description: 'Custom name/value entries; empty when none were sent.',
          items: {
            type: 'object',
            required: ['name', 'namespace', 'value'],
            properties: { name: { type: 'string' }, namespace: { type: 'string' }, value: { type: 'string' } },
            additionalProperties: false,
          },
        },
      },
      additionalProperties: false,
    },
  },
  additionalProperties: false,
};

export const productPageResponse = pageBodySchema(productResponse, 'One page of the account’s products.');

export const createProductsResponse = fourKeyBody(batchResults('Created', 'product'), 'All products were created.');

export const updateProductsResponse = fourKeyBody(batchResults('Updated', 'product'), 'All products were updated.');
