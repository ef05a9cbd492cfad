import { InTurn } from '../../platform/in-turn';

const tick = () => new Promise((resolve) => setTimeout(resolve, 5));

describe('tasks in turn', () => {
  it('runs one task at a time, in order, each started while the caller goes on', async () => {
    const turn = new InTurn();
    const log: string[] = [];
    const task = (name: string) => async () => {
      log.push(`${name} start`);
      await tick();
      log.push(`${name} end`);
    };
    await turn.next(task('a'));
    log.push('caller');
    await turn.next(task('b'));
    await turn.finished();
    expect(log).toEqual(['a start', 'caller', 'a end', 'b start', 'b end']);
  });

  it("surfaces a task's failure at the next task or at finished(), and settled() waits without it", async () => {
    const failing = new InTurn();
    await failing.next(() => Promise.reject(new Error('first')));
    await expect(failing.next(async () => undefined)).rejects.toThrow('first');
    const last = new InTurn();
    await last.next(async () => {
      await tick();
      throw new Error('last');
    });
    await expect(last.settled()).resolves.toBeUndefined();
    await expect(last.finished()).rejects.toThrow('last');
  });
});
