/**
 * Extra Node options for the processes a benchmark starts, from an environment variable (space-separated), e.g.
 * BENCH_SERVER_NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/prof": to see where their time goes.
 */
export const nodeArgsFrom = (name: string): string[] => (process.env[name] ?? '').split(' ').filter(Boolean);
