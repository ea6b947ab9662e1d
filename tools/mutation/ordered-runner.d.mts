/** Types of ordered-runner.mjs (a plain module: Stryker loads its plugins without a TypeScript loader). */
export function withPredecessors(order: Record<string, string[]>, wanted: readonly string[]): string[];
export function completeRun<R extends { status: string; nrOfTests?: number }>(run: () => Promise<R>, wanted: number): Promise<R | { status: 'error'; errorMessage: string }>;
export const strykerPlugins: unknown[];
