import { pathToFileURL } from 'node:url';
import { buildApp } from './app';
import { loadConfig } from './config';
import { demoWallLink } from './db/seed/demo-wall';
import { OPERATOR_ACCOUNT, OPERATOR_PASSWORD } from './db/seed/operator';

/** The whole shutdown's bound: past it the process exits anyway, so a restart never finds its ports still taken. */
const SHUTDOWN_LIMIT_MS = 10_000;

/** Where a started server listens. */
export interface Started {
  url: string;
  /** The embedded broker's port; undefined with an external broker (MQTT_URL). */
  mqttPort?: number;
}

/** Composition root: config -> database -> HTTP (more parts join as they are built). */
export async function main(): Promise<Started> {
  const config = loadConfig();
  const { app, broker, close, platform } = await buildApp(config);
  await app.listen({ port: config.port, host: config.host });
  const shown = config.host === '0.0.0.0' || config.host === '::' ? 'localhost' : config.host;
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const store = config.databaseUrl ? 'PostgreSQL' : `SQLite (${config.dataDir}/vigil.sqlite)`;
  console.log(`\nVigil is running: http://${shown}:${port}/  (store: ${store})`);
  console.log(broker ? `MQTT broker on port ${broker.port}` : `MQTT: external broker ${config.mqttUrl}`);
  console.log('Sign in with tenant 000000, account admin, password admin');
  console.log(`Demo tenant 100001: admin / admin, or the duty operator ${OPERATOR_ACCOUNT} / ${OPERATOR_PASSWORD}`);
  if (config.demo) console.log(await demoWallLink(platform, `http://${shown}:${port}/`));
  console.log('');
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) {
      app.log.warn(`${signal} again: exiting without finishing the shutdown`);
      process.exit(1);
    }
    stopping = true;
    app.log.info(`${signal}: shutting down`);
    setTimeout(() => {
      app.log.error(`shutdown took longer than ${SHUTDOWN_LIMIT_MS / 1000} s: exiting without finishing it`);
      process.exit(1);
    }, SHUTDOWN_LIMIT_MS).unref();
    close().then(
      () => process.exit(0),
      (error: unknown) => {
        app.log.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
  return { url: `http://${shown}:${port}/`, mqttPort: broker?.port };
}

/** `node server/main.ts` runs the server; tools/start.ts imports it and calls main() itself. */
if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
