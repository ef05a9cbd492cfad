import fs from 'node:fs';
import path from 'node:path';
import { ERRORS, type CatalogueEntry } from '../../contract/error-catalogue';
import { PROJECT_ROOT } from '../../platform/config';

/**
 * docs/errors.md lists every entry of contract/error-catalogue.ts below its marker, as `catalogue()` writes
 * them: a code added, renamed or reworded in one place and not the other fails here.
 * `UPDATE_ERRORS_DOC=1 npx jest test/docs/errors.test.ts` writes the list again.
 */
const PAGE = path.join(PROJECT_ROOT, 'docs/errors.md');
const MARKER = '<!-- The list below is written from contract/error-catalogue.ts by test/docs/errors.test.ts. -->';

const entry = (code: string, { status, title, gs1, means, fix }: CatalogueEntry): string =>
  [`### ${code}`, '', `${status}${gs1 ? ` · \`${gs1}\`` : ''} · ${title}`, '', `${means} **Fix:** ${fix}`].join('\n');

const catalogue = (): string =>
  `${MARKER}\n\n${Object.entries(ERRORS)
    .map(([code, e]) => entry(code, e))
    .join('\n\n')}\n`;

describe('docs/errors.md', () => {
  it('lists every code of the catalogue with its status, title, meaning and fix', () => {
    const page = fs.readFileSync(PAGE, 'utf8');
    const at = page.indexOf(MARKER);
    expect(at).toBeGreaterThan(0);
    if (process.env.UPDATE_ERRORS_DOC) fs.writeFileSync(PAGE, page.slice(0, at) + catalogue());
    expect(fs.readFileSync(PAGE, 'utf8').slice(at)).toBe(catalogue());
  });
});
