import { ERRORS, typeOf, type ErrorCode } from '../error-catalogue';
import type { ResponseSpec } from './operation';
import type { JsonSchema } from './schema';

/**
 * Bodies every operation shares, as api/errors.ts and the middleware produce them. A problem body
 * (RFC 9457) always carries the request id as `traceId`; a validation problem adds `errors`.
 */
const problem: JsonSchema = {
  type: 'object',
  description: 'Problem details (RFC 9457). `traceId` is the request id, also sent back in the X-Request-Id header.',
  required: ['type', 'code', 'title', 'status', 'traceId'],
  properties: {
    type: {
      type: 'string',
      description: 'URL of the RFC 9110 section of the status code; under /epcis, GS1’s EPCIS exception name.',
      example: typeOf('unknown-product'),
    },
    code: {
      type: 'string',
      enum: Object.keys(ERRORS),
      description: 'What went wrong, as a stable id to match on: docs/errors.md says what each means and its fix.',
      example: 'unknown-product',
    },
    title: { type: 'string', description: 'What went wrong, for a person: the same for every problem of the code.' },
    detail: { type: 'string', description: 'This occurrence, for a person, with the values the title leaves out.' },
    status: { type: 'integer', minimum: 400, maximum: 599 },
    traceId: { type: 'string', description: 'The request id (X-Request-Id).' },
    errors: {
      type: 'object',
      description: 'Field name to the messages about it.',
      additionalProperties: { type: 'array', items: { type: 'string' } },
    },
  },
};

const validationProblem: JsonSchema = {
  type: 'object',
  allOf: [{ $ref: '#/components/schemas/Problem' }],
  description: 'A 400 problem naming each offending field in `errors`.',
  required: ['errors'],
};

export const componentSchemas: Record<string, JsonSchema> = {
  Problem: problem,
  ValidationProblem: validationProblem,
};

export const ref = (name: string): JsonSchema => ({ $ref: `#/components/schemas/${name}` });

export const PROBLEM_JSON = 'application/problem+json';

/** The request header of the status GETs that can wait for a batch to finish (api/batch-wait.ts). */
export const preferWaitHeader: JsonSchema = {
  type: 'object',
  properties: {
    Prefer: {
      type: 'string',
      description:
        '`wait=N` (RFC 7240, read as a long poll): at most how many seconds to wait for a batch still under way to finish (at most SYNC_WAIT_SECONDS, 30 by default); the answer then says `Preference-Applied: wait=N`. Other preferences, and a wait that is not a whole number, are ignored.',
      example: 'wait=30',
    },
  },
};

/** The traceId of every example problem body. */
export const EXAMPLE_TRACE_ID = '00-4f1c2a7d9b3e4c5f8a6b1d2e3f4a5b6c-1a2b3c4d5e6f7a8b-00';

/** An example body of `code`'s problems as api/errors.ts builds them; `extras` are its detail, errors and other members. */
export const problemExample = (code: ErrorCode, extras: Record<string, unknown> = {}) => ({
  type: typeOf(code),
  code,
  title: ERRORS[code].title,
  status: ERRORS[code].status,
  ...extras,
  traceId: EXAMPLE_TRACE_ID,
});

/** A problem answer of an operation, with an example body of `code` when given (a ValidationProblem when it has `errors`). */
export const problemResponse = (
  description: string,
  code?: ErrorCode,
  extras: Record<string, unknown> = {},
): ResponseSpec => ({
  description,
  contentType: PROBLEM_JSON,
  schema: ref('errors' in extras ? 'ValidationProblem' : 'Problem'),
  ...(code ? { example: problemExample(code, extras) } : {}),
});
