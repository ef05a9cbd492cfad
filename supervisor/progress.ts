/**
 * What `npm start` tells a person at a terminal while it starts: one line per part as it is up, then one
 * summary of where everything is. Files and pipes get none of it: the JSON log lines say the same, for
 * machines.
 */
export interface StartProgress {
  /** A line of its own: starting, stopping. */
  say(text: string): void;
  /** A step taking long enough to be worth saying before it ends (installing the Temporal CLI). */
  note(part: string, text: string): void;
  /** A part is up: its name, what it is (an address), and the seconds since the start. */
  ready(part: string, detail: string): void;
  /** Where everything is, once all is up: label and value per line. */
  summary(rows: readonly (readonly [label: string, value: string])[]): void;
}

const PART_WIDTH = 12;

/** The lines, written to `write` (the terminal), timed from `startedAt`. */
export function terminalProgress(write: (text: string) => void, startedAt = Date.now()): StartProgress {
  const seconds = () => `${((Date.now() - startedAt) / 1000).toFixed(1)} s`;
  return {
    say: (text) => write(`${text}\n`),
    note: (part, text) => write(`  … ${part.padEnd(PART_WIDTH)} ${text}\n`),
    ready: (part, detail) => write(`  ✓ ${part.padEnd(PART_WIDTH)} ${detail} (${seconds()})\n`),
    summary: (rows) => {
      const width = Math.max(...rows.map(([label]) => label.length));
      write(
        `\nReady in ${seconds()}:\n` +
          rows.map(([label, value]) => `  ${label.padEnd(width)}  ${value}\n`).join('') +
          'Ctrl-C stops everything.\n',
      );
    },
  };
}

/** Nothing: the log lines are the whole story. */
export const silentProgress: StartProgress = {
  say: () => undefined,
  note: () => undefined,
  ready: () => undefined,
  summary: () => undefined,
};
