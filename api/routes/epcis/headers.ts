/**
 * The GS1 headers of the REST binding whose values come from a list. Real clients spell them in their own
 * letter case (GDST's documentation writes `ALWAYS_EPC_URN`): compared without case, answered in the
 * standard's spelling.
 */
import type { APIContext } from '../../context';
import { problem, type ApiError } from '../../errors';
import { EXTENSION_PARAMETER, extensionNamespacesOf } from '../../../domain/epcis/query-parameters';
import type { Namespaces } from '../../../domain/epcis/event-hash';

/** A GS1 header whose value is not in its list: the 400 names the header, the values it takes and the one sent. */
export const unknownHeaderValue = (name: string, values: readonly string[], sent: string): ApiError =>
  problem('epcis-invalid-header', {
    detail: `${name} must be one of ${values.join(', ')}; got "${sent.slice(0, 100)}".`,
    issues: [{ pointer: '', message: `${name} "${sent.slice(0, 100)}" is not known.` }],
  });

/** The header's value in the standard's spelling, `fallback` when absent; a value not in `values` is a 400 naming the header. */
export function gs1HeaderValue<T extends string, F extends T | undefined = undefined>(
  ctx: Pick<APIContext, 'get'>,
  name: string,
  values: readonly T[],
  fallback?: F,
): T | F {
  const sent = ctx.get(name).trim();
  if (!sent) return fallback as F;
  const value = values.find((candidate) => candidate.toLowerCase() === sent.toLowerCase());
  if (value === undefined) throw unknownHeaderValue(name, values, sent);
  return value;
}

/**
 * The namespaces GS1-Extensions declares for a query's extension parameters (`example=https://ns.example.com/epcis/`).
 * Read only for a query that has one: clients send the header to name what they support too (`FIT`).
 */
export function extensionNamespaces(ctx: Pick<APIContext, 'get'>, query: object): Namespaces {
  if (!Object.keys(query).some((name) => EXTENSION_PARAMETER.test(name))) return {};
  const sent = ctx.get('GS1-Extensions');
  const namespaces = extensionNamespacesOf(sent);
  if (namespaces) return namespaces;
  throw problem('epcis-invalid-header', {
    detail: `GS1-Extensions must be a list of prefix=IRI separated by commas; got "${sent.slice(0, 100)}".`,
    issues: [
      {
        pointer: '',
        message: 'GS1-Extensions is not a list of prefix=IRI, such as example=https://ns.example.com/epcis/.',
      },
    ],
  });
}
