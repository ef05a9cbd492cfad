/**
 * Response schemas shared by the master-data endpoints (locations, products): the four-key body of
 * batch-errors.ts, as it answers both success and failure.
 */
import { closed, closedObject } from '../openapi/schema';
import { nullableText } from '../../domain/schemas/text';

/** A request property's list of values as an answer states it: its enum and description, not the request's example. */
export const answeredEnum = ({ enum: values, description }: { enum: readonly string[]; description: string }) =>
  ({ type: 'string', enum: values, description }) as const;

/** One MasterDataIssue (domain/master-data.ts). */
export const masterDataIssueSchema = {
  type: 'object',
  description: 'One problem with the request, naming the element it concerns.',
  ...closed({
    index: {
      type: ['integer', 'null'],
      minimum: 0,
      description:
        'Position of the element in the request list (0 for the single-object form); null when the problem concerns the whole request.',
      example: 0,
    },
    id: nullableText(
      'The id the element was sent with; null when it has none or the problem concerns the whole request.',
      'LOC-1',
    ),
    field: {
      type: 'string',
      description: 'Path of the offending field in the request body, e.g. `Locations[0].Details.Duns`.',
      example: 'Locations[0].Details.Duns',
    },
    message: {
      type: 'string',
      description: 'What is wrong, for a person.',
      example: 'Locations[0].Details.Duns must contain 9 or 13 digits.',
    },
  }),
} as const;

const issues = (description: string) => ({ type: 'array', items: masterDataIssueSchema, description });

/** `{ message, result, errors, validations }` with the given `result` schema. */
export const fourKeyBody = (result: object, description: string) =>
  ({
    type: 'object',
    description,
    ...closed({
      message: { type: 'string', description: 'Summary of the outcome, for a person.' },
      result,
      errors: issues(
        'What contradicts the data the account already has (an id that exists, a location that is not there). Empty on success.',
      ),
      validations: issues('What is wrong with the request itself (schema and rule failures). Empty on success.'),
    }),
  }) as const;

/** The rejection: nothing was stored or changed, `result` is empty, `errors` or `validations` say why. */
export const masterDataRejectionSchema = fourKeyBody(
  { type: 'array', maxItems: 0, description: 'Always empty: nothing was stored or changed.' },
  'The request was rejected as a whole; nothing was stored or changed. `validations` and `errors` name each problem.',
);

/** An example rejection: `message`, no `result`, and the `errors` or `validations` given. */
export const rejection = (message: string, issues: { errors?: unknown[]; validations?: unknown[] }) => ({
  message,
  result: [],
  errors: issues.errors ?? [],
  validations: issues.validations ?? [],
});

/** `result` of a batch create or update: one `{id, status}` per element, in request order. */
export const batchResults = (status: 'Created' | 'Updated', what: string) =>
  ({
    type: 'array',
    description: `One entry per ${what} of the request, in request order.`,
    items: closedObject({
      id: {
        type: 'string',
        format: 'uuid',
        description: `Service-generated id of the ${what} (not the caller-chosen id).`,
      },
      status: { type: 'string', enum: [status] },
    }),
  }) as const;
