/** The value at percentile `p` of ascending `sorted` (nearest rank). */
export const percentile = (sorted: readonly number[], p: number): number =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

/** p50 and p95 of ascending `sorted`, in whole milliseconds. */
export const latencyMs = (sorted: readonly number[]) => ({
  p50: Math.round(percentile(sorted, 50)),
  p95: Math.round(percentile(sorted, 95)),
});

export const round = (n: number, digits = 1): number => Math.round(n * 10 ** digits) / 10 ** digits;

/** Runs a benchmark as the script's entry point: its report as JSON on stdout, exit 1 on a failure. */
export function runBench(bench: () => Promise<object>): void {
  bench().then(
    (report) => {
      console.log(JSON.stringify(report, null, 2));
      process.exit(0);
    },
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
}
