import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { gs1SchemaIssues } from '../../domain/epcis/json-schema';
import { createAccount } from '../factories/accounts';
import { capture } from '../factories/epcis';
import { client } from '../helpers/http';

/** GS1's 47 EPCIS 2.0 JSON-LD example documents (test/fixtures/gs1-epcis/README.md says where they come from). */
const ROOT = join(__dirname, '../fixtures/gs1-epcis/JSON');
const files = (dir: string): string[] =>
  readdirSync(dir).flatMap((name) =>
    statSync(join(dir, name)).isDirectory()
      ? files(join(dir, name))
      : name.endsWith('.jsonld')
        ? [join(dir, name)]
        : [],
  );
const EXAMPLES = files(ROOT)
  .sort()
  .map((file) => [relative(ROOT, file), JSON.parse(readFileSync(file, 'utf8'))] as const);

type Event = Record<string, unknown> & { eventID?: string; errorDeclaration?: unknown };
const eventListOf = (document: {
  epcisBody: { eventList?: Event[]; queryResults?: { resultsBody: { eventList: Event[] } } };
}): Event[] => document.epcisBody.eventList ?? document.epcisBody.queryResults!.resultsBody.eventList;

describe('GS1’s EPCIS 2.0 JSON-LD examples', () => {
  it('are all 47 of them', () => {
    expect(EXAMPLES).toHaveLength(47);
  });

  it.each(EXAMPLES)(
    '%s captures, and each of its events comes back by its eventID, valid against GS1’s schema',
    async (_name, document) => {
      const account = await createAccount('gs1-example');
      const job = await capture(account.key, document);
      expect(job).toMatchObject({ success: true, errors: [] });
      for (const event of eventListOf(document).filter((e) => e.eventID)) {
        const response = await client(account.key).get(`/epcis/events/${encodeURIComponent(event.eventID!)}`, {
          'GS1-EPC-Format': 'Never_Translates',
        });
        expect({ eventID: event.eventID, status: response.status }).toEqual({ eventID: event.eventID, status: 200 });
        expect(gs1SchemaIssues(response.body)).toEqual([]);
        const [found] = eventListOf(response.body);
        if (event.errorDeclaration) expect(found.errorDeclaration).toEqual(event.errorDeclaration);
        else expect(found.type).toBe(event.type);
      }
    },
  );
});
