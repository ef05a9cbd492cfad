import { setTimeout as sleep } from 'node:timers/promises';
import { MockActivityEnvironment } from '@temporalio/testing';
import { withHeartbeat } from '../../activities/heartbeat';

/** withHeartbeat in an activity context of its own (MockActivityEnvironment): no server needed to see a heartbeat. */
describe('withHeartbeat', () => {
  const step = withHeartbeat(async (ms: number) => {
    await sleep(ms);
    return ms;
  }, 20);

  it('heartbeats while an activity task runs the step, and stops when the step ends', async () => {
    const env = new MockActivityEnvironment();
    let heartbeats = 0;
    env.on('heartbeat', () => heartbeats++);
    await expect(env.run(step, 150)).resolves.toBe(150);
    expect(heartbeats).toBeGreaterThanOrEqual(3);
    const after = heartbeats;
    await sleep(100);
    expect(heartbeats).toBe(after);
  });

  it('runs a local activity alone: a local activity has no heartbeat', async () => {
    const env = new MockActivityEnvironment({ isLocal: true });
    let heartbeats = 0;
    env.on('heartbeat', () => heartbeats++);
    await expect(env.run(step, 100)).resolves.toBe(100);
    expect(heartbeats).toBe(0);
  });

  it('stops heartbeating when the step fails', async () => {
    const env = new MockActivityEnvironment();
    let heartbeats = 0;
    env.on('heartbeat', () => heartbeats++);
    const failing = withHeartbeat(async () => {
      await sleep(60);
      throw new Error('no database');
    }, 20);
    await expect(env.run(failing)).rejects.toThrow('no database');
    const after = heartbeats;
    await sleep(80);
    expect(heartbeats).toBe(after);
  });
});
