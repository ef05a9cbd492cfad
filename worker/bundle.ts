import fs from 'node:fs';
import path from 'node:path';
import { bundleWorkflowCode, DefaultLogger } from '@temporalio/worker';

export const workflowsPath = (): string => require.resolve('../workflows');

/** Webpack-bundles the workflows once; the worker loads the file instead of bundling at every start. */
export async function buildWorkflowBundle(outFile: string): Promise<string> {
  const { code } = await bundleWorkflowCode({ workflowsPath: workflowsPath(), logger: new DefaultLogger('WARN') });
  fs.mkdirSync(path.dirname(outFile), { recursive: true });
  fs.writeFileSync(outFile, code);
  return outFile;
}

if (require.main === module) {
  const out = path.resolve(process.argv[2] ?? 'dist/workflow-bundle.js');
  buildWorkflowBundle(out).then(
    (file) => console.log(`workflow bundle written to ${file}`),
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
}
