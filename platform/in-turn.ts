/**
 * Tasks run one at a time and in order, each started once the one before it has ended, while the caller
 * goes on: a file's next chunk is read while the last one is stored. A task's failure surfaces at the
 * next `next` or at `finished()`, never as an unhandled rejection in between.
 */
export class InTurn {
  private last: Promise<void> = Promise.resolve();

  /** Waits for the task before, then starts `task` without waiting for it. */
  async next(task: () => Promise<void>): Promise<void> {
    await this.last;
    this.last = task();
    this.last.catch(() => undefined);
  }

  /** Waits for the last task to end, whether or not it failed. */
  settled(): Promise<void> {
    return this.last.catch(() => undefined);
  }

  /** Waits for the last task to end: rejects with its failure. */
  finished(): Promise<void> {
    return this.last;
  }
}
