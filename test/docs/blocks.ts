import fs from 'node:fs';
import path from 'node:path';
import { PROJECT_ROOT } from '../../platform/config';

/**
 * The fenced blocks of the user documentation (README.md and docs/*.md), as test/docs/commands.test.ts
 * runs them. The conventions a page follows (stated in docs/architecture.md, "Documentation"):
 * - every ```sh block runs, in page order, in one bash per page, so a variable one block sets
 *   (`KEY=...`) is there for the next;
 * - a block right after `<!-- not-tested: reason -->` does not run (npm start itself, benchmarks);
 * - the service is named http://127.0.0.1:8080, which the test replaces with the test stack's URL;
 * - the Temporal CLI is `npm run --silent temporal -- …`, never a bare `temporal` (not on a fresh clone's PATH);
 * - every ```json block is valid JSON.
 */
export interface Block {
  page: string;
  /** 1-based line of the opening fence. */
  line: number;
  lang: string;
  text: string;
  /** The reason given in `<!-- not-tested: reason -->` right before the block. */
  notTested?: string;
}

export const DEFAULT_API = 'http://127.0.0.1:8080';

export function docPages(): string[] {
  const docs = path.join(PROJECT_ROOT, 'docs');
  const pages = fs.existsSync(docs)
    ? fs
        .readdirSync(docs)
        .filter((f) => f.endsWith('.md'))
        .sort()
        .map((f) => `docs/${f}`)
    : [];
  return ['README.md', ...pages];
}

export function blocksOf(page: string): Block[] {
  const lines = fs.readFileSync(path.join(PROJECT_ROOT, page), 'utf8').split('\n');
  const blocks: Block[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^```(\S*)\s*$/.exec(lines[i]);
    if (!open) continue;
    const start = i;
    const body: string[] = [];
    for (i++; i < lines.length && !/^```\s*$/.test(lines[i]); i++) body.push(lines[i]);
    let before = start - 1;
    while (before >= 0 && lines[before].trim() === '') before--;
    const marker = before >= 0 ? /^<!--\s*not-tested:\s*(.*?)\s*-->$/.exec(lines[before].trim()) : null;
    blocks.push({
      page,
      line: start + 1,
      lang: open[1],
      text: body.join('\n'),
      ...(marker ? { notTested: marker[1] } : {}),
    });
  }
  return blocks;
}

/** Relative links of a page (`[text](target)` or `[text](target#fragment)`), the ones that name files. */
export function relativeLinks(page: string): { file: string; fragment?: string }[] {
  const text = fs.readFileSync(path.join(PROJECT_ROOT, page), 'utf8');
  return [...text.matchAll(/\]\(([^)\s]+)\)/g)]
    .map((m) => m[1])
    .filter((target) => !/^[a-z]+:/i.test(target) && !target.startsWith('#'))
    .map((target) => {
      const [file, fragment] = target.split('#');
      return fragment ? { file, fragment } : { file };
    });
}

/** The anchors GitHub gives a page's headings: lower case, punctuation dropped, spaces as hyphens. */
export function headingAnchors(page: string): Set<string> {
  const text = fs.readFileSync(path.join(PROJECT_ROOT, page), 'utf8').replace(/^```[\s\S]*?^```/gm, '');
  return new Set(
    [...text.matchAll(/^#+ (.+)$/gm)].map((m) =>
      m[1]
        .trim()
        .toLowerCase()
        .replace(/[^\p{L}\p{N}\s_-]/gu, '')
        .replace(/\s/g, '-'),
    ),
  );
}
