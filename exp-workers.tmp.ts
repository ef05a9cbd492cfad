import { Connection } from '@temporalio/client';
import { startStack } from './test/helpers/stack';
(async () => {
  const stack = await startStack({ LOG_LEVEL: 'warn' });
  try {
    const c = await Connection.connect({ address: stack.state.temporalAddress });
    for (let i = 0; i < 3; i++) {
      await new Promise((r) => setTimeout(r, 6000));
      const r = await c.workflowService.listWorkers({ namespace: 'default', pageSize: 100 });
      console.log(JSON.stringify((r.workersInfo ?? []).map((w) => ({ tq: w.workerHeartbeat?.taskQueue, status: w.workerHeartbeat?.status, hb: w.workerHeartbeat?.heartbeatTime, key: w.workerHeartbeat?.workerInstanceKey })), null, 0));
    }
    process.kill(stack.state.workerPid!, 'SIGKILL');
    for (let i = 0; i < 4; i++) {
      await new Promise((r) => setTimeout(r, 5000));
      const r = await c.workflowService.listWorkers({ namespace: 'default', pageSize: 100 });
      console.log('after kill', JSON.stringify((r.workersInfo ?? []).map((w) => ({ status: w.workerHeartbeat?.status, hb: w.workerHeartbeat?.heartbeatTime?.seconds, key: w.workerHeartbeat?.workerInstanceKey }))));
    }
    await c.close();
  } catch (e) { console.error('ERR', e); } finally { await stack.stop(); }
})();
