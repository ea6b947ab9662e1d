// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { postgresRequired } from '../support/databases';

/** When an unreachable PostgreSQL fails the run (tests/support/databases.ts) instead of skipping its suites. */
describe('PostgreSQL required', () => {
  it('is required where .ci/run says so, or under CI, and not on a developer machine', () => {
    expect(postgresRequired({ VIGIL_REQUIRE_POSTGRES: '1' })).toBe(true);
    expect(postgresRequired({ CI: 'true' })).toBe(true);
    expect(postgresRequired({})).toBe(false);
  });

  it('can be waived on a CI machine without PostgreSQL', () => {
    expect(postgresRequired({ CI: 'true', VIGIL_REQUIRE_POSTGRES: '0' })).toBe(false);
  });
});
