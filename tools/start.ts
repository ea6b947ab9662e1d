import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/**
 * `npm start`: rebuild the console when its build is missing or older than its sources, then start the platform as the
 * demo (DEMO=1: it migrates and seeds the database on the way up, the demo's week of history included) and, with the
 * embedded broker, the device simulator (SIMULATE=0 leaves it out).
 */
const CONSOLE_SOURCES = ['src', 'machines', 'streams', 'locales', 'public', 'index.html', 'vite.config.ts', 'lingui.config.ts', 'package.json'];
const BUILT = join('dist', 'index.html');

function newestMtime(path: string): number {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return readdirSync(path).reduce((newest, name) => Math.max(newest, newestMtime(join(path, name))), stat.mtimeMs);
}

function consoleIsStale(): boolean {
  if (!existsSync(BUILT)) return true;
  const built = statSync(BUILT).mtimeMs;
  return CONSOLE_SOURCES.some((source) => newestMtime(source) > built);
}

if (existsSync('index.html') && consoleIsStale()) {
  console.log('Building the console (its build is missing or older than its sources)…');
  const vite = join('node_modules', '.bin', 'vite');
  const result = spawnSync(vite, ['build', '--logLevel', 'warn'], { stdio: 'inherit' });
  if (result.status !== 0) {
    console.error('The console build failed; see above.');
    process.exit(result.status ?? 1);
  }
}

process.env.DEMO ??= '1';
const { main } = await import('../server/main');
const started = await main();

if (started.mqttPort !== undefined && process.env.SIMULATE !== '0') startSimulator(started.mqttPort);

/**
 * The demo bridge's devices over real MQTT, their daily cycles 60 times faster than the clock so its alarms come and go
 * within minutes (README "Simulator"). It stops with the server.
 */
function startSimulator(mqttPort: number): void {
  const args = ['--import', 'tsx', join('tools', 'simulator', 'run.ts'), '--url', `mqtt://127.0.0.1:${mqttPort}`, '--interval', '5000', '--speed', '60', '--quiet'];
  const simulator = spawn(process.execPath, args, { stdio: 'inherit' });
  console.log('The simulator publishes the demo bridge’s readings (SIMULATE=0 to leave it out).');
  process.once('exit', () => simulator.kill());
}
