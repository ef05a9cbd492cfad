import { atMost } from '../../domain/at-most';

describe('at most N at a time', () => {
  it('never runs more than the limit at once, starts the next as soon as one ends, and answers in order', async () => {
    let running = 0;
    let most = 0;
    const order: string[] = [];
    // Item 0 waits until item 4 has run: the others must go through the second lane meanwhile.
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const results = await atMost(2, [0, 1, 2, 3, 4], async (i) => {
      running += 1;
      most = Math.max(most, running);
      order.push(`start ${i}`);
      if (i === 0) await gate;
      else await Promise.resolve();
      if (i === 4) release();
      running -= 1;
      order.push(`end ${i}`);
      return i * 10;
    });
    expect(most).toBe(2);
    expect(results).toEqual([0, 10, 20, 30, 40]);
    expect(order.indexOf('end 4')).toBeLessThan(order.indexOf('end 0'));
  });

  it('runs nothing for no items and fails with the first failure', async () => {
    await expect(atMost(4, [], async () => 1)).resolves.toEqual([]);
    await expect(
      atMost(2, [1, 2, 3], async (n) => {
        if (n === 2) throw new Error(`item ${n}`);
        return n;
      }),
    ).rejects.toThrow('item 2');
  });
});
