import { withLimits } from '../../limits';
import { IMPORT_KINDS } from './kinds';

export const templateQuery = withLimits({
  type: 'object',
  properties: {
    format: { type: 'string', enum: ['csv', 'xlsx'], description: 'csv (the default) or xlsx (with a Notes sheet).' },
  },
} as const);

export const kindParam = {
  type: 'object',
  required: ['kind'],
  properties: { kind: { type: 'string', enum: IMPORT_KINDS, description: 'An event type, locations or products.' } },
} as const;
