/**
 * The four-key body master-data endpoints answer with (DESIGN.md, "Validation errors on master data"):
 * `{ message, result, errors, validations }`. `validations` holds what is wrong with the request
 * itself (schema and rule failures); `errors` holds what contradicts the account's stored data
 * (an id that exists, a trade partner name that differs, a location that is not there).
 */
import type { AnySchema, ErrorObject } from 'ajv';
import type { MasterDataIssue } from '../../../domain/master-data';
import { DUNS_PATTERN } from '../../../domain/schemas/locations';
import { MasterDataRefused, type MasterDataDeps } from '../../../usecases/master-data';
import type { AppCustom } from '../../context';
import { type ApiError, rawError } from '../../errors';
import { fieldOf, messageOf } from '../../../platform/json-schema';
import { validate } from '../../middleware/validate';

type Issues = { errors?: MasterDataIssue[]; validations?: MasterDataIssue[] };

/** The four-key body; a success has no `errors` nor `validations`. */
export const fourKey = <R>(message: string, result: R, { errors = [], validations = [] }: Issues = {}) => ({
  message,
  result,
  errors,
  validations,
});

/** The four-key answer to stored records: `n noun(s) created.` (or updated) and each one's id. */
export const storedAnswer = (noun: 'location' | 'product', status: 'Created' | 'Updated', ids: readonly string[]) =>
  fourKey(
    `${ids.length} ${noun}(s) ${status.toLowerCase()}.`,
    ids.map((id) => ({ id, status })),
  );

export const rejection = (status: number, message: string, issues: Issues): ApiError =>
  rawError(status, fourKey(message, [], issues));

export const invalidRequest = (validations: MasterDataIssue[]): ApiError =>
  rejection(400, `The request has ${validations.length} validation error(s); nothing was stored.`, { validations });

const conflictingRequest = (errors: MasterDataIssue[]): ApiError =>
  rejection(400, `The request conflicts with stored data in ${errors.length} place(s); nothing was stored.`, {
    errors,
  });

/** What the master data use cases take from the API process. */
export const masterDataDeps = (deps: AppCustom['deps']): MasterDataDeps => ({
  sequelize: deps.sequelize,
  urnDomain: deps.config.urnDomain,
});

/** The four-key answer to a refused master data use case (usecases/master-data.ts); anything else is rethrown. */
export const refusedAs =
  (noun: 'location' | 'product') =>
  (error: unknown): never => {
    if (!(error instanceof MasterDataRefused)) throw error;
    const { kind, errors, validations } = error;
    if (kind === 'conflict') throw conflictingRequest(errors);
    if (noun === 'product')
      throw rejection(404, `${errors.length} product(s) were not found; nothing was changed.`, { errors });
    throw rejection(
      kind === 'notFound' ? 404 : 400,
      `The update has ${errors.length + validations.length} error(s); nothing was changed.`,
      { errors, validations },
    );
  };

/** Patterns in the schemas whose ajv message ("must match pattern ...") says nothing to a caller. */
const PATTERN_MESSAGES: Record<string, string> = { [DUNS_PATTERN]: 'must contain 9 or 13 digits' };

function describe(error: ErrorObject): string {
  const field = fieldOf(error) || 'The request body';
  switch (error.keyword) {
    case 'pattern':
      return PATTERN_MESSAGES[String(error.params.pattern)]
        ? `${field} ${PATTERN_MESSAGES[String(error.params.pattern)]}.`
        : messageOf(error);
    case 'format':
      return error.params.format === 'url'
        ? `${field} must be a URL (for example https://registry.example/vessel/1).`
        : messageOf(error);
    case 'minLength':
      return `${field} must not be empty.`;
    case 'minItems':
      return `${field} must contain at least ${String(error.params.limit)} element(s).`;
    default:
      return messageOf(error);
  }
}

/** An ajv error named after the element it concerns: `/Locations/2/...` is index 2, `/Location/...` index 0. */
function issueOf(error: ErrorObject, body: unknown, singles: readonly string[]): MasterDataIssue {
  const [collection, position] = error.instancePath.split('/').slice(1);
  const container = (body as Record<string, unknown> | undefined)?.[collection ?? ''];
  let index: number | null = null;
  let element: unknown;
  if (Array.isArray(container) && position !== undefined && /^\d+$/.test(position)) {
    index = Number(position);
    element = container[index];
  } else if (collection !== undefined && singles.includes(collection)) {
    index = 0;
    element = container;
  }
  const ids = (element ?? {}) as { id?: unknown; Id?: unknown };
  const id = typeof ids.id === 'string' ? ids.id : typeof ids.Id === 'string' ? ids.Id : null;
  return { index, id, field: fieldOf(error), message: describe(error) };
}

/** The validate middleware answering in the four-key body, each element named by its index and id. */
export const validateBatch = <S extends AnySchema>(schema: S, singles: readonly string[] = []) =>
  validate({ body: schema }, (errors, body) => invalidRequest(errors.map((error) => issueOf(error, body, singles))));
