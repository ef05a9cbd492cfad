import { problemResponse } from '../openapi/components';
import { taggedOperation } from '../openapi/operation';
import { requiredObject } from '../openapi/schema';
import { linksResponse, linksetResponse, masterDataQuery, masterDataResponse, resolverQuery } from './schema';

const operation = taggedOperation('EPCIS');

const description = [
  'GS1 Digital Link resolver for the account’s own identifiers, with the API key as every route. A key that is no GS1 key takes its URN in its place, as GDST’s reference client (OpenTraceability) builds the path: `/01/urn:gdst:<domain>:product:class:<id>/10/<lot>`, `/414/urn:gdst:<domain>:location:loc:<id>`, `/417/urn:gdst:<domain>:party:<id>`.',
  '`linkType=gs1:epcis` answers a JSON array of links in GS1’s resolver data format (exactly its members: link, title, linkType, ianaLanguage, context, mimeType, active, fwqs, defaultLinkType, defaultIanaLanguage, defaultContext, defaultMimeType, identifier, authRequired): the first is this service’s EPCIS query interface (`/epcis`, to which GDST’s tools add `/events` and their query), the second the identifier’s events query.',
  '`linkType=gs1:masterData` answers the same array of links (one: `/masterdata/<the same path>`, where the master data is GS1 Web Vocabulary JSON-LD), as GDST’s client reads it, asking with no Accept header; a request that prefers `application/ld+json` gets the JSON-LD itself. No linkType (or `all`) answers the RFC 9264 linkset (`application/linkset+json`).',
  'Link types are taken in any letter case; one the resolver does not have is a 404.',
].join(' ');

const responses = (what: string) => ({
  200: {
    description:
      'The links (JSON array), the master data (JSON-LD, to linkType=gs1:masterData with Accept: application/ld+json) or the linkset, by linkType.',
    contentType: ['application/json', 'application/ld+json', 'application/linkset+json'],
    schema: { anyOf: [linksResponse, masterDataResponse, linksetResponse] },
  },
  400: problemResponse(
    `The ${what} is not well-formed (digits, length, check digit; or not a URN), or a query parameter is unknown.`,
  ),
  404: problemResponse(`This account has no such ${what}, or no link of the linkType asked for.`),
});

const masterDataDescription = [
  'The master data a `gs1:masterData` link of the resolver names, in GS1 Web Vocabulary JSON-LD whatever the request accepts (GDST’s client fetches it with no Accept header): members are the vocabulary’s terms as GDST’s reference client maps them (`gtin`, `productName`, `globalLocationNumber`, `name`, `organizationName`, `address`; names as `[{ "@value" }]`), a vessel’s attributes as `cbvmda:vesselName`, `cbvmda:vesselFlagState`, `cbvmda:vesselID`, `gdst:imoNumber`.',
  'What the account holds, as the resolver: anything else is a 404.',
].join(' ');

const masterDataResponses = (what: string) => ({
  200: { description: 'The master data.', contentType: 'application/ld+json', schema: masterDataResponse },
  400: problemResponse(
    `The ${what} is not well-formed (digits, length, check digit; or not a URN), or a query parameter was given.`,
  ),
  404: problemResponse(`This account has no such ${what}.`),
});

/** The parameters of an identifier's path: its key (a GS1 key or a URN, up to 300 characters), then any qualifier (up to 100). */
const pathParamsOf = (path: string) =>
  requiredObject(
    Object.fromEntries(
      [...path.matchAll(/\{(\w+)\}/g)].map(([, name], i) => [
        name,
        { type: 'string', minLength: 1, maxLength: i ? 100 : 300 },
      ]),
    ),
  );

/**
 * An identifier the resolver serves: `what` it names (in its 400 and 404), its resolve operation (`more`
 * added to the description) and the operation of its master data (none for an SSCC).
 */
interface Identifier {
  path: string;
  what: string;
  summary: string;
  more?: string;
  masterData?: string;
}

const identifiers: Identifier[] = [
  {
    path: '/01/{gtin}',
    what: 'product (GTIN or product class URN)',
    summary: 'Resolve a GTIN or product class URN (GS1 Digital Link)',
    masterData: 'Master data of a GTIN or product class URN (gs1:Product)',
  },
  {
    path: '/01/{gtin}/10/{lot}',
    what: 'lot',
    summary: 'Resolve a lot of a GTIN (GS1 Digital Link)',
    more: 'The lot must be named by one of the account’s events (of a product class URN: as `urn:gdst:<domain>:product:lot:class:<id>.<lot>`).',
    masterData: 'Master data of a lot (gs1:Product)',
  },
  {
    path: '/01/{gtin}/21/{serial}',
    what: 'serialised item',
    summary: 'Resolve a serialised item of a GTIN (GS1 Digital Link)',
    more: 'The serial must be named by one of the account’s events (of a product class URN: as `urn:gdst:<domain>:product:serial:obj:<id>.<serial>`).',
    masterData: 'Master data of a serialised item (gs1:Product)',
  },
  {
    path: '/00/{sscc}',
    what: 'logistic unit (SSCC)',
    summary: 'Resolve a logistic unit’s SSCC (GS1 Digital Link)',
    more: 'An SSCC is taken as its 18 digits or as its EPC URN (`urn:epc:id:sscc:…`, as GDST’s client sends it), and must be named by one of the account’s events; it has gs1:epcis links only.',
  },
  {
    path: '/414/{gln}',
    what: 'location (GLN or location URN)',
    summary: 'Resolve a location’s GLN or URN (GS1 Digital Link)',
    masterData: 'Master data of a location’s GLN or URN (gs1:Place)',
  },
  {
    path: '/414/{gln}/254/{extension}',
    what: 'location (GLN with its extension)',
    summary: 'Resolve a sub-location: a GLN with its extension (GS1 Digital Link)',
    more: 'The location with that GLN and extension (`0`: the GLN itself), as an SGLN names it; events name it as `https://id.gs1.org/414/<gln>/254/<extension>`.',
    masterData: 'Master data of a sub-location: a GLN with its extension (gs1:Place)',
  },
  {
    path: '/417/{pgln}',
    what: 'party (PGLN or party URN)',
    summary: 'Resolve a party’s GLN or URN (GS1 Digital Link)',
    more: 'A party URN is held when it is a trade partner of the account or one of its events names it (source, destination, GDST’s product owner or information provider).',
    masterData: 'Master data of a party’s GLN or URN (gs1:Organization)',
  },
];

export const resolverOperations = [
  ...identifiers.map(({ path, what, summary, more }) =>
    operation({
      method: 'get',
      path,
      summary,
      description: more ? `${description} ${more}` : description,
      query: resolverQuery,
      pathParams: pathParamsOf(path),
      responses: responses(what),
    }),
  ),
  ...identifiers.flatMap(({ path, what, masterData }) =>
    masterData
      ? [
          operation({
            method: 'get',
            path: `/masterdata${path}`,
            summary: masterData,
            description: masterDataDescription,
            query: masterDataQuery,
            pathParams: pathParamsOf(path),
            responses: masterDataResponses(what),
          }),
        ]
      : [],
  ),
];
