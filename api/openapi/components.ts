import { problemType } from '../errors';
import type { ResponseSpec } from './operation';
import type { JsonSchema } from './schema';

/**
 * Bodies every operation shares, as api/errors.ts and the middleware produce them. A problem body
 * (RFC 9457) always carries the request id as `traceId`; a validation problem adds `errors`.
 */
const problem: JsonSchema = {
  type: 'object',
  description: 'Problem details (RFC 9457). `traceId` is the request id, also sent back in the X-Request-Id header.',
  required: ['type', 'title', 'status', 'traceId'],
  properties: {
    type: { type: 'string', description: 'URL of the RFC 9110 section of the status code.', example: problemType(404) },
    title: { type: 'string', description: 'What went wrong, for a person.' },
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

/** A problem-details answer of an operation, with an example body carrying `title`. */
export const problemResponse = (status: number, description: string, title: string): ResponseSpec => ({
  description,
  contentType: PROBLEM_JSON,
  schema: ref('Problem'),
  example: { type: problemType(status), title, status, traceId: EXAMPLE_TRACE_ID },
});

/** SPEC.md, Authentication 6 and 7: the two answers every secured operation can give about its key. */
export const examples = {
  missingKey: {
    type: problemType(400),
    title: 'One or more validation errors occurred.',
    status: 400,
    errors: { 'X-API-KEY': ['The apiKey field is required.'] },
    traceId: EXAMPLE_TRACE_ID,
  },
  invalidKey: {
    type: problemType(401),
    title: 'The API key is not valid.',
    status: 401,
    traceId: EXAMPLE_TRACE_ID,
  },
  tooManyRequests: {
    type: problemType(429),
    title:
      'Too many requests with this API key: it may make 50 a second and 500 more a minute above that; send again after 1 s (Retry-After).',
    status: 429,
    traceId: EXAMPLE_TRACE_ID,
  },
  malformedJson: {
    type: problemType(400),
    title: 'The request body is not valid JSON: Unexpected end of JSON input',
    status: 400,
    traceId: EXAMPLE_TRACE_ID,
  },
  tooLarge: {
    type: problemType(413),
    title: 'The request body is too large: at most 25 MB.',
    status: 413,
    traceId: 'abc-123',
  },
  unsupportedMediaType: {
    type: problemType(415),
    title: 'The request body must be JSON: send Content-Type: application/json (got text/plain).',
    status: 415,
    accepted: ['application/json'],
    traceId: 'abc-123',
  },
  unavailable: {
    type: problemType(503),
    title: 'The database is unavailable for a moment; send the request again (events with the same Idempotency-Key).',
    status: 503,
    traceId: 'abc-123',
  },
  unexpected: { type: problemType(500), title: 'An unexpected error occurred.', status: 500, traceId: 'abc-123' },
} as const;
