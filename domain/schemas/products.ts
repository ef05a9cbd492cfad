/**
 * The products' payloads: what creating or updating a product may carry, whether it comes as POST or
 * PUT /Integration/Products or as an import's rows (the OpenAPI document shows these same schemas).
 * Units are checked and normalised in domain/units.ts, where the accepted list lives.
 */
import { withLimits } from './limits';
import { closed } from './unknown-fields';
import { idText, text } from './text';

export const detailsProperties = {
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
  Gtin: text('Global Trade Item Number.', '07038010000010'),
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

const productId = idText('Caller-chosen product id, unique in the account; later events refer to it.', 'SKU-1');

/** A body of one or more products, each an Id and its Details; closed: a property not listed here is refused, naming the field (domain/schemas/unknown-fields.ts). */
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
