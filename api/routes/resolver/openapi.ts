import { problemResponse } from '../../openapi/components';
import { operation } from '../../openapi/operation';
import { linksResponse, linksetResponse, masterDataResponse, resolverQuery } from './schema';

const description = [
  'GS1 Digital Link resolver for the account’s own identifiers, with the API key as every route.',
  '`linkType=gs1:epcis` answers a JSON array of links: the first is this service’s EPCIS query interface (`/epcis`, to which GDST’s tools add `/events` and their query), the second the identifier’s events query.',
  '`linkType=gs1:masterData` answers the master data in GS1 Web Vocabulary JSON-LD. No linkType (or `all`) answers the RFC 9264 linkset (`application/linkset+json`).',
  'Link types are taken in any letter case; one the resolver does not have is a 404.',
].join(' ');

const responses = (what: string) => ({
  200: {
    description: 'The links (JSON array), the master data (JSON-LD) or the linkset, by linkType.',
    contentType: ['application/json', 'application/ld+json', 'application/linkset+json'],
    schema: { anyOf: [linksResponse, masterDataResponse, linksetResponse] },
  },
  400: problemResponse(
    `The ${what} is not well-formed (digits, length, check digit), or a query parameter is unknown.`,
  ),
  404: problemResponse(`This account has no such ${what}, or no link of the linkType asked for.`),
});

const path = (name: string) =>
  ({
    type: 'object',
    required: [name],
    properties: { [name]: { type: 'string', minLength: 1, maxLength: 100 } },
  }) as const;

export const resolverOperations = [
  operation({
    method: 'get',
    path: '/01/{gtin}',
    summary: 'Resolve a GTIN (GS1 Digital Link)',
    description,
    tags: ['EPCIS'],
    query: resolverQuery,
    pathParams: path('gtin'),
    responses: responses('product (GTIN)'),
  }),
  operation({
    method: 'get',
    path: '/01/{gtin}/10/{lot}',
    summary: 'Resolve a lot of a GTIN (GS1 Digital Link)',
    description: `${description} The lot must be named by one of the account’s events.`,
    tags: ['EPCIS'],
    query: resolverQuery,
    pathParams: {
      type: 'object',
      required: ['gtin', 'lot'],
      properties: {
        gtin: { type: 'string', minLength: 1, maxLength: 100 },
        lot: { type: 'string', minLength: 1, maxLength: 100 },
      },
    },
    responses: responses('lot'),
  }),
  operation({
    method: 'get',
    path: '/01/{gtin}/21/{serial}',
    summary: 'Resolve a serialised item of a GTIN (GS1 Digital Link)',
    description: `${description} The serial must be named by one of the account’s events.`,
    tags: ['EPCIS'],
    query: resolverQuery,
    pathParams: {
      type: 'object',
      required: ['gtin', 'serial'],
      properties: {
        gtin: { type: 'string', minLength: 1, maxLength: 100 },
        serial: { type: 'string', minLength: 1, maxLength: 100 },
      },
    },
    responses: responses('serialised item'),
  }),
  operation({
    method: 'get',
    path: '/414/{gln}',
    summary: 'Resolve a location’s GLN (GS1 Digital Link)',
    description,
    tags: ['EPCIS'],
    query: resolverQuery,
    pathParams: path('gln'),
    responses: responses('location (GLN)'),
  }),
  operation({
    method: 'get',
    path: '/417/{pgln}',
    summary: 'Resolve a party’s GLN (GS1 Digital Link)',
    description,
    tags: ['EPCIS'],
    query: resolverQuery,
    pathParams: path('pgln'),
    responses: responses('party (PGLN)'),
  }),
];
