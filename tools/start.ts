import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/**
 * `npm start`: rebuild the console when its build is missing or older than its sources, then start the platform
 * (which migrates and seeds the database on the way up).
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

await import('../server/main');
