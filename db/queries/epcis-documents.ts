import type { Sequelize } from 'sequelize';
import {
  companyPrefixCandidates,
  companyPrefixOfUrn,
  type EpcFormat,
  identifiersOfEvent,
  withDigitalLinks,
  withEpcUrns,
} from '../../domain/epcis/identifiers';
import type { EpcisEvent } from '../../domain/epcis/translate';
import { knownCompanyPrefixes } from './epcis-events';

export const GS1_CONTEXT = 'https://ref.gs1.org/standards/epcis/2.0.0/epcis-context.jsonld';

/**
 * The events with identifiers in the format asked for. No_Preference and Never_Translates answer them as
 * captured. Always_EPC_URN turns a Digital Link into a URN only where its company prefix is known (a
 * Digital Link does not say where it ends): from a URN of the same company among these events or
 * among the account's captured events; any other stays as captured.
 */
export async function inEpcFormat(
  sequelize: Sequelize,
  accountId: string,
  format: EpcFormat,
  events: EpcisEvent[],
): Promise<EpcisEvent[]> {
  if (format === 'Always_GS1_Digital_Link') return events.map(withDigitalLinks);
  if (format !== 'Always_EPC_URN') return events;
  const identifiers = events.flatMap(identifiersOfEvent);
  const prefixes = new Set(identifiers.flatMap((identifier) => companyPrefixOfUrn(identifier) ?? []));
  const unknown = [...new Set(identifiers.flatMap(companyPrefixCandidates))].filter(
    (candidate) => !prefixes.has(candidate),
  );
  for (const prefix of await knownCompanyPrefixes(sequelize, accountId, unknown)) prefixes.add(prefix);
  return events.map((event) => withEpcUrns(event, prefixes));
}

/** An EPCISQueryDocument: the answer to an event query, and the body of a subscription's report. */
export async function epcisQueryDocument(
  sequelize: Sequelize,
  accountId: string,
  format: EpcFormat,
  page: { events: EpcisEvent[]; namespaces: unknown[] },
  results: { queryName: string; subscriptionID?: string },
) {
  return {
    '@context': [GS1_CONTEXT, ...page.namespaces],
    type: 'EPCISQueryDocument',
    schemaVersion: '2.0',
    creationDate: new Date().toISOString(),
    epcisBody: {
      queryResults: {
        queryName: results.queryName,
        ...(results.subscriptionID ? { subscriptionID: results.subscriptionID } : {}),
        resultsBody: { eventList: await inEpcFormat(sequelize, accountId, format, page.events) },
      },
    },
  };
}
