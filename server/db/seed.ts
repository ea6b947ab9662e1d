import type { Db } from './database';
import { seedMenuIcons } from './seed/menus';
import { seedMonitoring } from './seed/monitoring';
import { seedOperator } from './seed/operator';
import { seedPush } from './seed/push';
import { seedScreenButtons } from './seed/screen';
import { runSeedSteps } from './seed/runner';
import { seedSystem } from './seed/system';
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
];

/** What stores seeded before steps were recorded hold already: recorded as run on them, never run. */
export const LEGACY_SEED_STEPS: readonly string[] = ['0001_system', '0002_monitoring', '0003_push_reference'];

/** Runs the seed steps this store has not run yet; returns their names. */
export function seed(db: Db): Promise<string[]> {
  return runSeedSteps(db, SEED_STEPS, LEGACY_SEED_STEPS);
}
