import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { menuRight } from '../../../server/auth/rights';
import { principalOf } from '../../../server/auth/tokens';
import { buildApp } from '../../../server/app';
import { loadConfig } from '../../../server/config';
import { describeMachine } from '../support/machine';
import { percentile } from '../support/stores';

/**
 * What the authorisation gate adds to every API call (docs/authorisation.md): the caller's current roles, the route's
 * right against its grants, and the API scopes — timed call by call in-process, beside the token check every call
 * already paid before rights existed. SQLite, tenant 100001's administrator, the right of param/list.
 * Usage: npm run bench:rights [-- --calls 200000]
 */
const args = new Map(process.argv.slice(2).map((arg, i, all) => [arg, all[i + 1]]));
const CALLS = Number(args.get('--calls') ?? 200_000);

async function timed(label: string, call: () => Promise<unknown>): Promise<void> {
  for (let i = 0; i < 2_000; i += 1) await call(); // warm-up
  const samples: number[] = [];
  for (let i = 0; i < CALLS; i += 1) {
    const started = performance.now();
    await call();
    samples.push((performance.now() - started) * 1000);
  }
  samples.sort((a, b) => a - b);
  console.log(`  ${label.padEnd(44)} p50 ${percentile(samples, 50).toFixed(1)} µs   p99 ${percentile(samples, 99).toFixed(1)} µs`);
}

console.log(describeMachine());
const dataDir = mkdtempSync(join(tmpdir(), 'vigil-bench-rights-'));
const app = await buildApp(loadConfig({ LOG_LEVEL: 'silent' }, { dataDir, port: 0, mqttPort: 0, host: '127.0.0.1', consoleDir: join(dataDir, 'none') }));
try {
  await app.app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.app.server.address();
  const url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  const reply = await fetch(`${url}/api/blade-auth/oauth/token?tenantId=100001&username=admin&password=admin&grant_type=password&scope=all`, {
    method: 'POST',
    headers: { authorization: `Basic ${Buffer.from('saber:saber_secret').toString('base64')}`, 'tenant-id': '100001' },
  });
  const { access_token: token } = (await reply.json()) as { access_token: string };
  const { rights, scopes, tokens } = app.platform;
  const verified = await tokens.verify(token, 'access_token');
  if (!('claims' in verified)) throw new Error('sign-in failed');
  const principal = principalOf(verified.claims);
  const right = menuRight('param');
  console.log(`Authorisation gate, ${CALLS} calls each, in-process (SQLite, tenant 100001's administrator)`);
  await timed('token: verify the signature (before and after)', () => tokens.verify(token, 'access_token'));
  await timed('rights: current roles + right + API scopes (new)', async () => {
    const caller = await rights.current(principal);
    if (!caller || !(await rights.allows(caller, right)) || !(await scopes.apiAllowed(caller, '/blade-system/param/list'))) throw new Error('refused');
  });
} finally {
  await app.close();
  rmSync(dataDir, { recursive: true, force: true });
}
