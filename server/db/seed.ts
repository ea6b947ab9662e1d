import type { Db } from './database';
import { seedDemoLife } from './seed/demo-life';
import { seedMenuIcons } from './seed/menus';
import { seedDemoPointPrecision, seedMonitoring } from './seed/monitoring';
import { seedOperator } from './seed/operator';
import { seedPush } from './seed/push';
import { seedScreenButtons } from './seed/screen';
import { runSeedSteps } from './seed/runner';
import { seedSystem } from './seed/system';
import { seedWorkflow } from './seed/workflow';
import type { SeedStep } from './seed/write';

export { DEFAULT_INIT_PASSWORD, DEMO_TENANT, INIT_PASSWORD_PARAM, PLATFORM_MENU_CODES } from './seed/system';

/**
 * Every seed step, in order (docs/data-model.md "Seed data"). Each runs once per store and is recorded in
 * vigil_seed_step: data an administrator changed or removed later is never written again. The first three fill an
 * empty store; a later step adds to stores that have data, by natural keys (seed/write.ts insertMissing). Append new
 * steps; never rename, reorder or remove one that has shipped.
 */
export const SEED_STEPS: readonly SeedStep[] = [
  { name: '0001_system', run: seedSystem },
  { name: '0002_monitoring', run: seedMonitoring },
  { name: '0003_push_reference', run: seedPush },
  { name: '0004_demo_operator', run: seedOperator },
  { name: '0005_menu_icons', run: seedMenuIcons },
  { name: '0006_screen_buttons', run: seedScreenButtons },
  { name: '0007_demo_point_precision', run: seedDemoPointPrecision },
  { name: '0008_workflow', run: seedWorkflow },
];

/** What stores seeded before steps were recorded hold already: recorded as run on them, never run. */
export const LEGACY_SEED_STEPS: readonly string[] = ['0001_system', '0002_monitoring', '0003_push_reference'];

/**
 * The demo's steps, run after the others only when the server runs as the demo (DEMO=1, `npm start`): a week of the
 * demo bridge's history, its thresholds and alarms. Named apart from SEED_STEPS so their numbers never collide.
 */
export const DEMO_SEED_STEPS: readonly SeedStep[] = [{ name: 'demo_0001_life', run: (db) => seedDemoLife(db) }];

/** Runs the seed steps this store has not run yet (with the demo's when `demo`); returns their names. */
export function seed(db: Db, { demo = false } = {}): Promise<string[]> {
  return runSeedSteps(db, demo ? [...SEED_STEPS, ...DEMO_SEED_STEPS] : SEED_STEPS, LEGACY_SEED_STEPS);
}
