import { problemResponse } from '../openapi/components';
import { taggedOperation } from '../openapi/operation';
import { pageQueryErrorResponse, pageQuerySchema, onePageExample } from '../paging';
import { masterDataRejectionSchema, rejection } from '../master-data/schema';
import { createProductsSchema, updateProductsSchema } from '../../domain/schemas/products';
import { createProductsResponse, productPageResponse, productResponse, updateProductsResponse } from './schema';

const operation = taggedOperation('Products');

const cod = {
  Id: 'SKU-COD-1',
  Details: {
    Name: 'Atlantic cod fillet',
    SimpleUnitOfMeasurement: 'KGM',
    UnitQuantity: 2,
    UnitDescriptor: 'Cases',
    SharingPolicy: 'Open',
    ProductIdentifierType: 'Lot',
    Gtin: '07038010000010',
    MasterData: [{ name: 'species', namespace: 'custom', value: 'Gadus morhua' }],
  },
};

const storedCod = {
  id: 'SKU-COD-1',
  urn: 'urn:gdst:traceability.local:product:acme.SKU-COD-1',
  details: {
    name: 'Atlantic cod fillet',
    simpleUnitOfMeasurement: 'KGM',
    unitQuantity: 2,
    unitDescriptor: 'Cases',
    sharingPolicy: 'Open',
    productIdentifierType: 'Lot',
    gtin: '07038010000010',
    plu: null,
    masterData: [{ name: 'species', namespace: 'custom', value: 'Gadus morhua' }],
  },
};

const validationsDescription =
  '`validations`: the request breaks a schema or rule (a missing or empty field, a value outside its list, an unknown unit of measure, an Id sent twice).';

export const productsOperations = [
  operation({
    method: 'post',
    path: '/Integration/Products',
    summary: 'Create products',
    description:
      'Creates one or more products. All or nothing: when any element is invalid or its Id exists already, nothing is stored.',
    requestBody: { schema: createProductsSchema, example: { Products: [cod] } },
    responses: {
      200: {
        description: 'Every product was created; `result` has their service ids, in request order.',
        schema: createProductsResponse,
        example: {
          message: '1 product(s) created.',
          result: [{ id: '3c1d9e7a-2b4f-4a8e-9d61-7f0e5b2c8a93', status: 'Created' }],
          errors: [],
          validations: [],
        },
      },
      400: {
        description: `Nothing was stored. ${validationsDescription} \`errors\`: a product Id the account has already.`,
        schema: masterDataRejectionSchema,
        example: rejection('The request conflicts with stored data in 1 place(s); nothing was stored.', {
          errors: [
            {
              index: 0,
              id: 'SKU-COD-1',
              field: 'Products[0].Id',
              message: 'Product id "SKU-COD-1" already exists in this account.',
            },
          ],
        }),
      },
    },
  }),
  operation({
    method: 'put',
    path: '/Integration/Products',
    summary: 'Update products',
    description:
      'Changes the Details of existing products, identified by Id; absent fields keep their stored values, and MasterData, when sent, replaces the stored list. ' +
      'All or nothing: when any element is invalid or unknown, nothing is changed.',
    requestBody: {
      schema: updateProductsSchema,
      example: { Products: [{ Id: 'SKU-COD-1', Details: { Name: 'Atlantic cod loin', UnitQuantity: 5 } }] },
    },
    responses: {
      200: {
        description: 'Every product was updated; `result` has their service ids, in request order.',
        schema: updateProductsResponse,
        example: {
          message: '1 product(s) updated.',
          result: [{ id: '3c1d9e7a-2b4f-4a8e-9d61-7f0e5b2c8a93', status: 'Updated' }],
          errors: [],
          validations: [],
        },
      },
      400: {
        description: `Nothing was changed. ${validationsDescription}`,
        schema: masterDataRejectionSchema,
        example: rejection('The request has 1 validation error(s); nothing was stored.', {
          validations: [
            {
              index: 0,
              id: 'SKU-COD-1',
              field: 'Products[0].Details.UnitDescriptor',
              message: 'Products[0].Details.UnitDescriptor must be one of: Cases, Units, Totes, Pallets.',
            },
          ],
        }),
      },
      404: {
        description:
          'At least one Id names no product of the account; nothing was changed. `errors` lists each unknown Id.',
        schema: masterDataRejectionSchema,
        example: rejection('1 product(s) were not found; nothing was changed.', {
          errors: [{ index: 0, id: 'SKU-9', field: 'Products[0].Id', message: 'Product SKU-9 was not found.' }],
        }),
      },
    },
  }),
  operation({
    method: 'get',
    path: '/Integration/Products',
    summary: 'List products',
    description: 'The account’s products, in creation order, one page at a time.',
    query: pageQuerySchema,
    responses: {
      200: {
        description: 'One page of products.',
        schema: productPageResponse,
        example: onePageExample(storedCod),
      },
      400: pageQueryErrorResponse,
    },
  }),
  operation({
    method: 'get',
    path: '/Integration/Products/{id}',
    summary: 'Read one product',
    pathParams: {
      type: 'object',
      properties: {
        id: { type: 'string', minLength: 1, description: 'The caller-chosen product id.', example: 'SKU-COD-1' },
      },
    },
    responses: {
      200: {
        description: 'The product, shaped as an element of the list.',
        schema: productResponse,
        example: storedCod,
      },
      404: problemResponse(
        'The account has no product with this id (another account’s products are not visible).',
        'unknown-product',
        { detail: 'Product SKU-9 was not found.' },
      ),
    },
  }),
];
