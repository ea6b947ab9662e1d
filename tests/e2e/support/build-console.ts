import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    consoleDir: string;
  }
}

/** Global setup of the e2e project: one fresh `vite build` of the console per run, served by every test server. */
export default function setup(project: TestProject) {
  const outDir = mkdtempSync(join(tmpdir(), 'vigil-console-'));
  execFileSync(process.execPath, ['node_modules/vite/bin/vite.js', 'build', '--outDir', outDir, '--emptyOutDir', '--logLevel', 'warn'], {
    stdio: 'inherit',
  });
  project.provide('consoleDir', outDir);
  return () => rmSync(outDir, { recursive: true, force: true });
}
