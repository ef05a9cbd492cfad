import fs from 'node:fs';

export default function workflowTeardown(): void {
  const dir = globalThis.__WORKFLOW_BUNDLE_DIR__;
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
}
