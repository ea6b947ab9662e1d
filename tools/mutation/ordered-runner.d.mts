/** Types of ordered-runner.mjs (a plain module: Stryker loads its plugins without a TypeScript loader). */
export function withPredecessors(order: Record<string, string[]>, wanted: readonly string[]): string[];
export const strykerPlugins: unknown[];
