import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildApp } from '../../server/app';
import { loadConfig } from '../../server/config';
const dataDir = mkdtempSync(join(tmpdir(), 'rt-'));
const config = loadConfig({ LOG_LEVEL: 'silent' }, { dataDir, port: 0, mqttPort: 0, host: '127.0.0.1', jwtSecret: 'x'.repeat(32), consoleDir: join(dataDir, 'nc') });
const app = await buildApp(config);
// print the route table
console.log(app.app.printRoutes({ commonPrefix: false }));
await app.close();
