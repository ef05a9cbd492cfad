import { DefaultLogger, Runtime } from '@temporalio/worker';

// The SDK's own lines (workers starting and stopping, the activity failures a test asks for) stay out of
// the test output; a failing test says what went wrong itself.
Runtime.install({ logger: new DefaultLogger(process.env.SDK_LOG_LEVEL === 'WARN' ? 'WARN' : 'ERROR') });
