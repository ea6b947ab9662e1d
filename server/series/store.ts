import type { Platform } from '../platform';

/** The database and its dialect (the platform, or an open Database in the benchmark). */
export type Store = Pick<Platform, 'db' | 'dialect'>;
