import { type ChildProcess, spawn } from 'node:child_process';
import { BUILT_SERVER, builtOnce } from '../../build-server';
import { freePort } from '../../free-port';
import { nodeArgsFrom } from './node-args';

/** Benchmarks run the real server as its own process (its build), so the load generator does not share its event loop. */
export interface ServerProcess {
  url: string;
  port: number;
  /** Its process id, for its memory (/proc/<pid>/status). */
  pid: number;
  mqttPort: number;
  stop(): Promise<void>;
}

export interface ServerOptions {
  /** Fixed ports, e.g. to start a server again where its clients look for it; free ones otherwise. */
  port?: number;
  mqttPort?: number;
  /** Raises the soft open-file limit to the hard one: a server holding tens of thousands of sockets needs it. */
  raiseFileLimit?: boolean;
}

export async function startServerProcess(env: Record<string, string>, options: ServerOptions = {}): Promise<ServerProcess> {
  const port = options.port ?? (await freePort());
  const mqttPort = options.mqttPort ?? (await freePort());
  const nodeArgs = nodeArgsFrom('BENCH_SERVER_NODE_ARGS');
  // The server as a deployment runs it (docs/operations.md "Running it"), built from the sources as they stand.
  await builtOnce();
  const command = [process.execPath, ...nodeArgs, ...BUILT_SERVER];
  // `exec` keeps the process id: it is the server's, for its memory and its SIGTERM.
  const [file, ...args] = options.raiseFileLimit ? ['bash', '-c', 'ulimit -n "$(ulimit -Hn)" && exec "$@"', 'bash', ...command] : command;
  const child: ChildProcess = spawn(file, args, {
    env: { ...process.env, LOG_LEVEL: 'warn', HOST: '127.0.0.1', PORT: String(port), MQTT_PORT: String(mqttPort), ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  await new Promise<void>((resolve, reject) => {
    child.stdout?.on('data', (chunk: Buffer) => {
      if (chunk.toString().includes('Vigil is running')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`server exited with ${code}`)));
  });
  let exited = false;
  child.once('exit', () => {
    exited = true;
  });
  return {
    url,
    port,
    pid: child.pid as number,
    mqttPort,
    stop: () =>
      new Promise((resolve) => {
        if (exited) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

export async function signIn(url: string, tenantId = '000000'): Promise<string> {
  const query = new URLSearchParams({ tenantId, username: 'admin', password: 'admin', grant_type: 'password', scope: 'all', type: 'account' });
  const response = await fetch(`${url}/api/blade-auth/oauth/token?${query}`, {
    method: 'POST',
    headers: { authorization: `Basic ${Buffer.from('saber:saber_secret').toString('base64')}`, 'tenant-id': tenantId },
  });
  const body = (await response.json()) as { access_token?: string };
  if (!body.access_token) throw new Error(`sign-in failed: ${JSON.stringify(body)}`);
  return body.access_token;
}
