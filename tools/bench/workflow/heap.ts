import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildApp } from '../../../server/app';
import { loadConfig } from '../../../server/config';
import { seedId } from '../../../server/db/seed/ids';

/**
 * The heap a workflow server holds for its waiting instances: a server in this process (run with --expose-gc by
 * bench:workflow), the heap after a full collection before and after starting `--instances` leave requests. Waiting
 * instances are rows, not engines: the heap should not grow with them.
 * Usage: node --expose-gc --import tsx tools/bench/workflow/heap.ts [--instances 10000] [--database-url postgres://…]
 */
const args = new Map(process.argv.slice(2).map((arg, i, all) => [arg, all[i + 1]]));
const INSTANCES = Number(args.get('--instances') ?? 10_000);
const collect = (globalThis as { gc?: () => void }).gc;
if (!collect) throw new Error('run with node --expose-gc');

const heapMb = () => {
  collect();
  collect();
  return process.memoryUsage().heapUsed / 1024 / 1024;
};

const dataDir = mkdtempSync(join(tmpdir(), 'vigil-bench-heap-'));
const config = loadConfig({ LOG_LEVEL: 'silent' }, { dataDir, port: 0, mqttPort: 0, host: '127.0.0.1', databaseUrl: args.get('--database-url'), consoleDir: join(dataDir, 'none') });
const { platform, workflow, close } = await buildApp(config);
try {
  const definition = await platform.db
    .selectFrom('wf_definition')
    .select(['id', 'tenantId', 'processKey', 'xml', 'suspensionState'])
    .where('tenantId', '=', '100001')
    .where('processKey', '=', 'leave')
    .executeTakeFirstOrThrow();
  const applicant = seedId('user:100001:zhangsan');
  const start = () => workflow.service.start(definition, { starter: applicant, title: '基准请假', variables: { applyUser: applicant, days: 2 } });
  for (let i = 0; i < 20; i++) await start(); // the engine threads, the compiled process, the directory
  const before = heapMb();
  for (let i = 0; i < INSTANCES; i++) await start();
  const after = heapMb();
  console.log(`  heap after a full collection: ${before.toFixed(1)} MB with 20 instances waiting, ${after.toFixed(1)} MB with ${INSTANCES + 20} (${(((after - before) * 1024 * 1024) / INSTANCES).toFixed(0)} bytes per instance)`);
} finally {
  await close();
  rmSync(dataDir, { recursive: true, force: true });
}
