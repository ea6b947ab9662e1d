import { type Migration, type MigrationProvider, type MigrationResultSet, Migrator } from 'kysely';
import type { Db } from './database';
import * as system from './migrations/0001_system';
import * as settings from './migrations/0002_settings';
import * as mqtt from './migrations/0003_mqtt';
import * as monitoring from './migrations/0004_monitoring';
import * as ingest from './migrations/0005_ingest';
import * as alarms from './migrations/0006_alarms';
import * as comparison from './migrations/0007_comparison';
import * as data from './migrations/0008_data';
import * as push from './migrations/0009_push';
import * as third from './migrations/0010_third';
import * as rollups from './migrations/0011_rollups';
import * as seriesOrder from './migrations/0012_series_order';
import * as loginAttempts from './migrations/0013_login_attempts';
import * as seedSteps from './migrations/0014_seed_steps';
import * as strategyClaims from './migrations/0015_strategy_claims';
import * as statistics from './migrations/0016_statistics';
import * as screen from './migrations/0017_screen';
import * as channelLatest from './migrations/0018_channel_latest';
import * as workflow from './migrations/0019_workflow';
import * as purgeReady from './migrations/0020_purge_ready';
import * as sealedSecrets from './migrations/0021_sealed_secrets';
import * as cluster from './migrations/0022_cluster';
import * as deviceVerifiers from './migrations/0023_device_verifiers';
import * as taskRevision from './migrations/0024_task_revision';
import * as presenceSweep from './migrations/0025_presence_sweep';
import * as latestWrittenAt from './migrations/0026_latest_written_at';
import * as deviceHotUpdates from './migrations/0027_device_hot_updates';
import * as projectPointStripes from './migrations/0028_project_point_stripes';

/** Every migration, in order. Names sort lexically; never rename or edit one that has shipped. */
const MIGRATIONS: Record<string, Migration> = {
  '0001_system': system,
  '0002_settings': settings,
  '0003_mqtt': mqtt,
  '0004_monitoring': monitoring,
  '0005_ingest': ingest,
  '0006_alarms': alarms,
  '0007_comparison': comparison,
  '0008_data': data,
  '0009_push': push,
  '0010_third': third,
  '0011_rollups': rollups,
  '0012_series_order': seriesOrder,
  '0013_login_attempts': loginAttempts,
  '0014_seed_steps': seedSteps,
  '0015_strategy_claims': strategyClaims,
  '0016_statistics': statistics,
  '0017_screen': screen,
  '0018_channel_latest': channelLatest,
  '0019_workflow': workflow,
  '0020_purge_ready': purgeReady,
  '0021_sealed_secrets': sealedSecrets,
  '0022_cluster': cluster,
  '0023_device_verifiers': deviceVerifiers,
  '0024_task_revision': taskRevision,
  '0025_presence_sweep': presenceSweep,
  '0026_latest_written_at': latestWrittenAt,
  '0027_device_hot_updates': deviceHotUpdates,
  '0028_project_point_stripes': projectPointStripes,
};

const provider: MigrationProvider = { getMigrations: async () => MIGRATIONS };

export async function migrateToLatest(db: Db): Promise<void> {
  const migrator = new Migrator({ db, provider });
  report(await migrator.migrateToLatest());
}

/** Migrates up (or down) to the named migration: tests check a migration against data of the schema before it. */
export async function migrateTo(db: Db, name: keyof typeof MIGRATIONS): Promise<void> {
  const migrator = new Migrator({ db, provider });
  report(await migrator.migrateTo(name));
}

function report({ error, results }: MigrationResultSet): void {
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    const reason = error instanceof Error ? error.message : String(error ?? '');
    throw new Error(`migration ${failed?.migrationName ?? ''} failed: ${reason}`);
  }
}
