import fs from 'node:fs';
import path from 'node:path';

export const workflowsPath = (): string => require.resolve('../workflows');

/** Webpack-bundles the workflows once; the worker loads the file instead of bundling at every start. */
export async function buildWorkflowBundle(outFile: string): Promise<string> {
  // Loaded when a bundle is built, not with the module: npm start imports this and, given a bundle
  // (WORKFLOW_BUNDLE_PATH, as every test stack is), would spend 0.8 s of CPU loading the worker package.
  const { bundleWorkflowCode, DefaultLogger } = await import('@temporalio/worker');
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
