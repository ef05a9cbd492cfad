/**
 * Why a batch was refused (DESIGN.md "Batch results and errors"): the codes, the error type and its
 * JSON Schema, from one list. The pipeline writes these errors, the API answers them, the CLI prints
 * them, and the OpenAPI document describes them, all from here.
 */
import type { FromSchema } from 'json-schema-to-ts';

export const BATCH_ERROR_CODES = [
  'Required',
  'InvalidValue',
  // A property the schema does not list (a typo such as DocumentIDs): refused before the batch is stored.
  'UnknownField',
  'InsufficientInventory',
  'DuplicateEventId',
  'UnknownProduct',
  'UnknownLocation',
  // Not the batch's fault: the pipeline gave up on it (nothing stored; sending it again may succeed).
  'InternalError',
] as const;

export type BatchErrorCode = (typeof BATCH_ERROR_CODES)[number];

/** One failure of a rejected batch: what its schema below says, and nothing else. */
export type BatchError = FromSchema<typeof batchErrorSchema & { additionalProperties: false }>;

/** The JSON Schema of one BatchError, as the OpenAPI document shows it. */
export const batchErrorSchema = {
  type: 'object',
  required: ['index', 'eventId', 'code', 'field', 'message'],
  description:
    'One reason the batch was rejected. InsufficientInventory also names product, lot, location, requested and available.',
  properties: {
    index: {
      type: ['integer', 'null'],
      minimum: 0,
      description: 'Position of the event in Events; null for a failure of the whole batch.',
    },
    eventId: {
      type: ['string', 'null'],
      description: "The event's Id as sent (ExternalEventId on POST /Integration/JSON).",
    },
    code: { enum: BATCH_ERROR_CODES },
    field: {
      type: ['string', 'null'],
      description: 'Path of the field inside the event, e.g. ProductInstances[0].Quantity.',
    },
    message: { type: 'string' },
    product: { type: 'string' },
    lotSerial: { type: 'string' },
    location: { type: 'string' },
    requested: { type: 'number' },
    available: { type: 'number' },
  },
} as const;

/**
 * Whether a Failed batch's errors say the pipeline gave up (an InternalError: nothing stored, send it
 * again) rather than refused what the batch says.
 */
export const isPipelineFailure = (errors: readonly BatchError[]): boolean =>
  errors.some((error) => error.code === 'InternalError');

/** A failure of the whole batch that is not its content's fault. */
export const internalError = (message: string): BatchError => ({
  index: null,
  eventId: null,
  code: 'InternalError',
  field: null,
  message,
});

/** The most a reason for abandoning a failed batch may hold (it is kept with the batch). */
export const ABANDON_REASON_MAX_LENGTH = 2000;
