import { setTimeout as sleep } from 'node:timers/promises';
import { MockActivityEnvironment } from '@temporalio/testing';
import { withHeartbeat } from '../../activities/heartbeat';

const EVERY_MS = 20;

/**
 * withHeartbeat in an activity context of its own (MockActivityEnvironment): no server needed to see a
 * heartbeat. Counted, not timed: on a busy machine a 20 ms interval may fire much later.
 */
describe('withHeartbeat', () => {
  /** A step that ends once `beats` heartbeats reached the environment (after them, `end` runs). */
  function stepUntil(env: MockActivityEnvironment, beats: number, end: () => string = () => 'done') {
    let seen = 0;
    const enough = new Promise<void>((resolve) =>
      env.on('heartbeat', () => {
        if (++seen === beats) resolve();
      }),
    );
    return {
      beats: () => seen,
      step: withHeartbeat(async () => {
        await enough;
        return end();
      }, EVERY_MS),
    };
  }

  it('heartbeats while an activity task runs the step, and stops when the step ends', async () => {
    const env = new MockActivityEnvironment();
    const { step, beats } = stepUntil(env, 3);
    await expect(env.run(step)).resolves.toBe('done');
    const after = beats();
    await sleep(10 * EVERY_MS);
    expect(beats()).toBe(after);
  });

  it('runs a local activity alone: a local activity has no heartbeat', async () => {
    const env = new MockActivityEnvironment({ isLocal: true });
    let heartbeats = 0;
    env.on('heartbeat', () => heartbeats++);
    const step = withHeartbeat(async () => {
      await sleep(10 * EVERY_MS);
      return 'done';
    }, EVERY_MS);
    await expect(env.run(step)).resolves.toBe('done');
    expect(heartbeats).toBe(0);
  });

  it('stops heartbeating when the step fails', async () => {
    const env = new MockActivityEnvironment();
    const { step, beats } = stepUntil(env, 2, () => {
      throw new Error('no database');
    });
    await expect(env.run(step)).rejects.toThrow('no database');
    const after = beats();
    await sleep(10 * EVERY_MS);
    expect(beats()).toBe(after);
  });
});
