import { operation } from '../openapi/operation';
import { ledgerVerification } from './schema';

export const ledgerOperations = [
  operation({
    method: 'get',
    path: '/Integration/Ledger/verify',
    summary: 'Verify the commission ledger',
    description:
      'Recomputes the account’s hash chain of commission events from the stored events and reports whether every link holds.',
    tags: ['Ledger'],
    responses: {
      200: {
        description: 'The verification.',
        schema: ledgerVerification,
        example: {
          entries: 42,
          headHash: '9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08',
          valid: true,
          firstInvalidSequence: null,
        },
      },
    },
  }),
];
