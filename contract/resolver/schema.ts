import { allRequired, closedObject } from '../openapi/schema';
import { LINK_TYPES } from '../../domain/epcis/resolver';

/** The resolver's query: the link type asked for (GS1 Digital Link), in any letter case. */
export const resolverQuery = {
  type: 'object',
  additionalProperties: false,
  properties: {
    linkType: {
      type: 'string',
      minLength: 1,
      maxLength: 100,
      description: `${LINK_TYPES.join(' or ')} (any letter case; \`all\` or absent: the linkset of every link).`,
      example: 'gs1:epcis',
    },
  },
} as const;

/** The master data routes take no query parameter. */
export const masterDataQuery = { type: 'object', additionalProperties: false, properties: {} } as const;

const boolean = (description: string) => ({ type: 'boolean', description }) as const;

/** GS1's resolver data format: exactly these members (GDST's client refuses any other). */
const link = closedObject({
  link: {
    type: 'string',
    description:
      'The target: this service’s EPCIS query interface (/epcis), the identifier’s events query, or its master data.',
  },
  title: { type: 'string' },
  linkType: { enum: LINK_TYPES },
  ianaLanguage: { type: 'string', description: 'The language of the title: `en`.' },
  context: { type: 'string', description: 'The territory the link is for: `xx`, any.' },
  mimeType: { type: 'string', description: 'The media type the target answers.' },
  active: boolean('Always true.'),
  fwqs: boolean('Always false: the request’s query string is not forwarded to the target.'),
  defaultLinkType: boolean('True for the identifier’s default link: the EPCIS query interface.'),
  defaultIanaLanguage: boolean('Always true: one language.'),
  defaultContext: boolean('Always true: one context.'),
  defaultMimeType: boolean('Always true: one media type.'),
  identifier: {
    type: 'string',
    description:
      'The identifier the link is for, as events name it: a GS1 key’s Digital Link on id.gs1.org, else its URN (a GDST lot as urn:gdst:…:product:lot:class:<class>.<lot>).',
  },
  authRequired: { type: 'boolean', description: 'Always true: the target takes the same X-API-KEY.' },
});

export const linksResponse = { type: 'array', items: link } as const;

export const linksetResponse = {
  type: 'object',
  description:
    'RFC 9264 linkset: one context object whose anchor is the identifier (on id.gs1.org for a GS1 key, else its URN); relation types are GS1 Web Vocabulary IRIs (https://gs1.org/voc/epcis, https://gs1.org/voc/masterData).',
  ...allRequired({
    linkset: {
      type: 'array',
      items: { type: 'object', required: ['anchor'], properties: { anchor: { type: 'string' } } },
    },
  }),
} as const;

export const masterDataResponse = {
  type: 'object',
  description:
    'GS1 Web Vocabulary JSON-LD: gs1:Product (GTIN or product class URN, lot or serial), gs1:Place (GLN or location URN; a vessel with GDST’s vessel attributes) or gs1:Organization (PGLN or party URN).',
  ...allRequired({
    '@context': { type: 'object' },
    '@id': { type: 'string' },
    '@type': { enum: ['gs1:Product', 'gs1:Place', 'gs1:Organization'] },
  }),
} as const;
