import { requiredObject } from '../openapi/schema';

export const ledgerVerification = requiredObject({
  entries: { type: 'integer', description: 'Commission events on the account’s hash chain.' },
  headHash: { type: ['string', 'null'], description: 'SHA-256 (hex) of the newest entry; null for an empty chain.' },
  valid: { type: 'boolean', description: 'Every entry’s payload hash and link recompute.' },
  firstInvalidSequence: {
    type: ['integer', 'null'],
    description: 'The first entry that does not check out; null when valid.',
  },
});
