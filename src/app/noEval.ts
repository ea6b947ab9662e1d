import { z } from 'zod';

/**
 * The server's content security policy allows no `eval` (docs/security.md "Headers"). Zod compiles its object parsers
 * with `new Function` when it may, and finds out by trying, which the browser reports as a violation: it is told not
 * to try. Imported first by every entry point, before any schema is built.
 */
z.config({ jitless: true });
