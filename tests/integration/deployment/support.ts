import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { createPgDatabase, postgresReachable } from '../../support/databases';
import { freePort, kill, type ServerProcess, startProcess, terminate } from '../../support/process';
import { hasBinary, type Service, startMosquitto, startRedis } from '../../support/services';

/**
 * One deployment of several server processes (docs/operations.md): real child processes on one PostgreSQL database,
 * one redis-server and one mosquitto, the last two started for the suite on free ports.
 */

/** Why the deployment cannot run on this machine, or undefined when it can. */
export async function missing(): Promise<string | undefined> {
  const absent = ['redis-server', 'mosquitto'].filter((binary) => !hasBinary(binary));
  if (absent.length) return `${absent.join(' and ')} not on this machine`;
  if (!(await postgresReachable())) return 'PostgreSQL not reachable';
  return undefined;
}

export interface Member {
  index: number;
  url: string;
  /** The MQTT client id its session bears (MQTT_CLIENT_ID). */
  clientId: string;
  process: ServerProcess;
}

export interface Deployment {
  members: Member[];
  /** The deployment's database, for counting what it stored. */
  sql: pg.Pool;
  redis: Service;
  mosquitto: Service;
  /** Where every process stores attachments (UPLOAD_DIR, a volume they share). */
  uploadDir: string;
  /** kill -9 of one process. */
  kill(index: number): Promise<void>;
  /** SIGTERM of one process; resolves with its exit code. */
  terminate(index: number): Promise<number | null>;
  /** Starts a stopped process again, on its old port and session. */
  restart(index: number): Promise<Member>;
  stop(): Promise<void>;
}

export async function startDeployment(size: number, env: Record<string, string> = {}): Promise<Deployment> {
  const [database, redis, mosquitto] = await Promise.all([createPgDatabase(), startRedis(), startMosquitto()]);
  const root = mkdtempSync(join(tmpdir(), 'vigil-deployment-'));
  const uploadDir = join(root, 'upload');
  mkdirSync(uploadDir);
  const group = `vigil-${randomBytes(3).toString('hex')}`;
  const ports = await Promise.all(Array.from({ length: size }, () => freePort()));
  const envOf = (index: number) => ({
    PORT: String(ports[index]),
    HOST: '127.0.0.1',
    DATA_DIR: join(root, `p${index}`),
    UPLOAD_DIR: uploadDir,
    CONSOLE_DIR: join(root, 'no-console'),
    DATABASE_URL: database.url,
    MQTT_URL: mosquitto.url,
    MQTT_CLIENT_ID: `${group}-p${index}`,
    MQTT_SHARE_GROUP: group,
    REDIS_URL: redis.url,
    JWT_SECRET: 'deployment-secret-0123456789abcdef',
    // One key for the secrets every process seals and opens (docs/security.md).
    SECRETS_KEY: Buffer.alloc(32, 7).toString('base64'),
    LOG_LEVEL: 'warn',
    DEMO: '0',
    FLOW_THREADS: '1',
    OUTBOUND_ALLOW_PRIVATE: '1',
    ...env,
  });
  const start = async (index: number): Promise<Member> => {
    const process = await startProcess(envOf(index));
    return { index, url: `http://127.0.0.1:${ports[index]}`, clientId: `${group}-p${index}`, process };
  };
  // The first one migrates and seeds an empty database; the others start together on it.
  const members = [await start(0)];
  members.push(...(await Promise.all(Array.from({ length: size - 1 }, (_, i) => start(i + 1)))));
  const sql = new pg.Pool({ connectionString: database.url, max: 2 });
  return {
    members,
    sql,
    redis,
    mosquitto,
    uploadDir,
    kill: async (index) => {
      await kill(members[index].process);
    },
    terminate: async (index) => (await terminate(members[index].process, 15_000)).code,
    restart: async (index) => {
      members[index] = await start(index);
      return members[index];
    },
    stop: async () => {
      await Promise.all(members.map((m) => (m.process.child.exitCode === null && m.process.child.signalCode === null ? terminate(m.process, 15_000) : undefined)));
      await sql.end();
      await Promise.all([redis.stop(), mosquitto.stop()]);
      await database.drop();
      rmSync(root, { recursive: true, force: true });
    },
  };
}
