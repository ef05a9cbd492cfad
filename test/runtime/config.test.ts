import os from 'node:os';
import { loadConfig } from '../../platform/config';

describe('the configuration a process reads from its environment', () => {
  it("runs the API's own worker unless API_SYNC_WORKER says otherwise, in any letter case", () => {
    expect(loadConfig({}).apiSyncWorker).toBe(true);
    expect(loadConfig({ API_SYNC_WORKER: 'FALSE' }).apiSyncWorker).toBe(false);
    expect(loadConfig({ API_SYNC_WORKER: '0' }).apiSyncWorker).toBe(false);
    expect(loadConfig({ API_SYNC_WORKER: 'True' }).apiSyncWorker).toBe(true);
    expect(() => loadConfig({ API_SYNC_WORKER: 'no' })).toThrow('API_SYNC_WORKER must be true or false, got "no"');
  });

  it("runs one more activity task at once than the machine's cores, unless WORKER_ACTIVITY_SLOTS says", () => {
    expect(loadConfig({}).workerActivitySlots).toBe(os.availableParallelism() + 1);
    expect(loadConfig({ WORKER_ACTIVITY_SLOTS: '12' }).workerActivitySlots).toBe(12);
    expect(() => loadConfig({ WORKER_ACTIVITY_SLOTS: '0' })).toThrow('WORKER_ACTIVITY_SLOTS must be a whole number');
  });
});
