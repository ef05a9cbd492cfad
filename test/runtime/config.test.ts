import os from 'node:os';
import { CAPTURE_LIMIT } from '../../api/routes/epcis/capture';
import { MAX_EVENTS } from '../../domain/schemas/events';
import { IMPORT_CHUNK_EVENTS } from '../../domain/spreadsheet-rows';
import { DEFAULT_PIPELINE_LOCAL_MAX_EVENTS, loadConfig } from '../../platform/config';

describe('the configuration a process reads from its environment', () => {
  it("runs the API's own worker unless API_SYNC_WORKER says otherwise, in any letter case", () => {
    expect(loadConfig({}).apiSyncWorker).toBe(true);
    expect(loadConfig({ API_SYNC_WORKER: 'FALSE' }).apiSyncWorker).toBe(false);
    expect(loadConfig({ API_SYNC_WORKER: '0' }).apiSyncWorker).toBe(false);
    expect(loadConfig({ API_SYNC_WORKER: 'True' }).apiSyncWorker).toBe(true);
    expect(() => loadConfig({ API_SYNC_WORKER: 'no' })).toThrow('API_SYNC_WORKER must be true or false, got "no"');
  });

  it('polls both task queues unless WORKER_ROLE names one role, in any letter case', () => {
    expect(loadConfig({}).workerRole).toBe('all');
    expect(loadConfig({ WORKER_ROLE: 'Interactive' }).workerRole).toBe('interactive');
    expect(loadConfig({ WORKER_ROLE: 'bulk' }).workerRole).toBe('bulk');
    expect(() => loadConfig({ WORKER_ROLE: 'sync' })).toThrow(
      'WORKER_ROLE must be one of all, interactive, bulk, got "sync"',
    );
  });

  it("runs one more step at once than the machine's cores, unless WORKER_ACTIVITY_SLOTS says", () => {
    expect(loadConfig({}).workerActivitySlots).toBe(os.availableParallelism() + 1);
    expect(loadConfig({ WORKER_ACTIVITY_SLOTS: '12' }).workerActivitySlots).toBe(12);
    expect(() => loadConfig({ WORKER_ACTIVITY_SLOTS: '0' })).toThrow('WORKER_ACTIVITY_SLOTS must be a whole number');
  });

  it('heartbeats every 5 s unless WORKER_HEARTBEAT_SECONDS says, within what the SDK takes (1-60 s)', () => {
    expect(loadConfig({}).workerHeartbeatSeconds).toBe(5);
    expect(loadConfig({ WORKER_HEARTBEAT_SECONDS: '1' }).workerHeartbeatSeconds).toBe(1);
    for (const value of ['0', '61', '1.5'])
      expect(() => loadConfig({ WORKER_HEARTBEAT_SECONDS: value })).toThrow(
        `WORKER_HEARTBEAT_SECONDS must be a whole number of seconds (1-60), got "${value}"`,
      );
  });

  it('trusts no proxy unless TRUSTED_PROXIES names them, and refuses what is no address nor range', () => {
    expect(loadConfig({}).trustedProxies).toEqual([]);
    expect(loadConfig({ TRUSTED_PROXIES: ' 10.0.0.0/8, 192.168.1.5 ,loopback,' }).trustedProxies).toEqual([
      '10.0.0.0/8',
      '192.168.1.5',
      'loopback',
    ]);
    expect(() => loadConfig({ TRUSTED_PROXIES: '10.0.0.0/8,proxy.example' })).toThrow(
      /^TRUSTED_PROXIES must be comma-separated IP addresses or CIDR ranges \(or loopback, linklocal, uniquelocal\): .*proxy\.example/,
    );
  });

  it('runs the steps of every batch a request, a capture or an import chunk can make as local activities by default', () => {
    for (const largest of [MAX_EVENTS, CAPTURE_LIMIT, IMPORT_CHUNK_EVENTS])
      expect(DEFAULT_PIPELINE_LOCAL_MAX_EVENTS).toBeGreaterThanOrEqual(largest);
    expect(loadConfig({}).pipelineLocalMaxEvents).toBe(DEFAULT_PIPELINE_LOCAL_MAX_EVENTS);
  });
});
