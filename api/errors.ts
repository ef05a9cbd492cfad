/**
 * Every error body leaves the service through api/middleware/error-handler.ts; handlers throw these.
 * A problem body (RFC 9457 problem details) names its entry of contract/error-catalogue.ts in `code` and
 * gets the request's traceId added on the way out.
 */
import { ERRORS, typeOf, type ErrorCode } from '../contract/error-catalogue';

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
    /** Problem bodies get a traceId; other bodies (documented plain shapes) are sent as they are. */
    readonly isProblem: boolean,
    message?: string,
  ) {
    super(message ?? (typeof body === 'string' ? body : `HTTP ${status}`));
  }
}

/** What is wrong at one JSON pointer (or XPath) of the request. */
export interface PointerIssue {
  pointer: string;
  message: string;
}

export interface ProblemExtras {
  /** This occurrence, for a person: the values the title leaves out. */
  detail?: string;
  /** Field name (or JSON pointer) to the messages about it. */
  errors?: Record<string, string[]>;
  /** GS1's form: issues grouped by pointer into `errors`, their messages joined into `detail` when none is given. */
  issues?: PointerIssue[];
  [member: string]: unknown;
}

export function problem(code: ErrorCode, { issues = [], ...extras }: ProblemExtras = {}): ApiError {
  const { status, title } = ERRORS[code];
  const fromIssues: ProblemExtras = {};
  if (issues.length) {
    const errors: Record<string, string[]> = {};
    for (const issue of issues) (errors[issue.pointer || '/'] ??= []).push(issue.message);
    Object.assign(fromIssues, { detail: issues.map((i) => i.message).join(' '), errors });
  }
  const body = { type: typeOf(code), code, title, status, ...fromIssues, ...extras };
  return new ApiError(status, body, true, extras.detail ?? title);
}

/** 400 with ASP.NET-style `errors: { field: [messages] }`, the shape SPEC.md shows for a missing key. */
export const validationProblem = (errors: Record<string, string[]>): ApiError => problem('invalid-request', { errors });

/** A ProductId the account has no product of (trace, recalls). */
export const unknownProduct = (productId: string): ApiError =>
  problem('unknown-product', {
    detail: `Product not found: ${productId}`,
    errors: { ProductId: [`No product ${productId} in this account.`] },
  });

export function unknownLot(productId: string, lotSerial: string): ApiError {
  const detail = `No event of this account names lot ${lotSerial} of product ${productId}.`;
  return problem('unknown-lot-or-serial', { detail, errors: { LotSerial: [detail] } });
}

/**
 * A date-time query parameter as a Date, or a 400 naming it: RFC 3339 (and so the schema's `date-time`)
 * allows a leap second (23:59:60), which JavaScript's Date cannot hold.
 */
export function queryTime(field: string, value: string | undefined): Date | undefined {
  if (value === undefined || value === '') return undefined;
  const time = new Date(value);
  if (Number.isNaN(time.getTime()))
    throw validationProblem({ [field]: [`${field} ${value} is not a time this service can compare with.`] });
  return time;
}

/** A documented body shape that is not problem details (SPEC.md's plain JSON strings, four-key bodies). */
export const rawError = (status: number, body: unknown): ApiError => new ApiError(status, body, false);
