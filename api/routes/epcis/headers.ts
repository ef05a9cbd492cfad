/**
 * The GS1 headers of the REST binding whose values come from a list. Real clients spell them in their own
 * letter case (GDST's documentation writes `ALWAYS_EPC_URN`): compared without case, answered in the
 * standard's spelling.
 */
import type { APIContext } from '../../context';
import { VALIDATION_EXCEPTION, epcisProblem } from './presenter';

/** The header's value in the standard's spelling, `fallback` when absent; a value not in `values` is a 400 naming the header. */
export function gs1HeaderValue<T extends string>(ctx: APIContext, name: string, values: readonly T[], fallback: T): T;
export function gs1HeaderValue<T extends string>(
  ctx: APIContext,
  name: string,
  values: readonly T[],
  fallback?: undefined,
): T | undefined;
export function gs1HeaderValue<T extends string>(
  ctx: APIContext,
  name: string,
  values: readonly T[],
  fallback?: T,
): T | undefined {
  const sent = ctx.get(name).trim();
  if (!sent) return fallback;
  const value = values.find((candidate) => candidate.toLowerCase() === sent.toLowerCase());
  if (value === undefined) {
    throw epcisProblem(
      400,
      VALIDATION_EXCEPTION,
      `${name} must be one of ${values.join(', ')} (in any letter case); got "${sent.slice(0, 100)}".`,
      [{ pointer: '', message: `${name} must be one of ${values.join(', ')}.` }],
    );
  }
  return value;
}
