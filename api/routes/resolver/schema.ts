import { LINK_TYPES } from '../../../domain/epcis/resolver';

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

export interface ResolverQuery {
  linkType?: string;
}

const link = {
  type: 'object',
  required: ['link', 'linkType', 'title', 'type', 'authRequired'],
  properties: {
    link: {
      type: 'string',
      description:
        'The target: this service’s EPCIS query interface (/epcis), the identifier’s events query, or its master data.',
    },
    linkType: { enum: LINK_TYPES },
    title: { type: 'string' },
    type: { type: 'string', description: 'The media type the target answers.' },
    authRequired: { type: 'boolean', description: 'Always true: the target takes the same X-API-KEY.' },
  },
} as const;

export const linksResponse = { type: 'array', items: link } as const;

export const linksetResponse = {
  type: 'object',
  required: ['linkset'],
  description:
    'RFC 9264 linkset: one context object whose anchor is the identifier on id.gs1.org; relation types are GS1 Web Vocabulary IRIs (https://gs1.org/voc/epcis, https://gs1.org/voc/masterData).',
  properties: {
    linkset: {
      type: 'array',
      items: { type: 'object', required: ['anchor'], properties: { anchor: { type: 'string' } } },
    },
  },
} as const;

export const masterDataResponse = {
  type: 'object',
  required: ['@context', '@id', '@type'],
  description:
    'GS1 Web Vocabulary JSON-LD: gs1:Product (GTIN, lot or serial), gs1:Place (GLN; a vessel with GDST’s vessel attributes) or gs1:Organization (PGLN).',
  properties: {
    '@context': { type: 'object' },
    '@id': { type: 'string' },
    '@type': { enum: ['gs1:Product', 'gs1:Place', 'gs1:Organization'] },
  },
} as const;
