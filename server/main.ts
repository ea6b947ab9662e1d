import { buildApp } from './app';
import { loadConfig } from './config';

/** Composition root: config -> database -> HTTP (more parts join as they are built). */
async function main(): Promise<void> {
  const config = loadConfig();
  const { app, broker, close } = await buildApp(config);
  await app.listen({ port: config.port, host: config.host });
  const shown = config.host === '0.0.0.0' || config.host === '::' ? 'localhost' : config.host;
  const store = config.databaseUrl ? 'PostgreSQL' : `SQLite (${config.dataDir}/vigil.sqlite)`;
  console.log(`\nVigil is running: http://${shown}:${config.port}/  (store: ${store})`);
  console.log(broker ? `MQTT broker on port ${broker.port}` : `MQTT: external broker ${config.mqttUrl}`);
  console.log('Sign in with tenant 000000, account admin, password admin\n');
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.log.info(`${signal}: shutting down`);
    await close();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
