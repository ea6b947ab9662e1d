import { parseArgs, type ParseArgsConfig } from 'node:util';

/** A refusal or failure the commands explain in one message; `exitCode` 2 marks bad arguments, 0 a requested --help. */
export class Failure extends Error {
  constructor(
    message: string,
    readonly exitCode = 1,
  ) {
    super(message);
  }
}

export const usageError = (message: string, usage: string) => new Failure(`${message}\n\n${usage}`, 2);

/** parseArgs with its own errors (an unknown option, a missing value) turned into a usage error. */
export function parseCommandLine<T extends ParseArgsConfig>(config: T, usage: string): ReturnType<typeof parseArgs<T>> {
  try {
    return parseArgs(config);
  } catch (error) {
    throw usageError((error as Error).message, usage);
  }
}

/**
 * Runs a command: its failures print as `<name>: message` on stderr with their exit code (1, or 2 for bad
 * arguments); anything else unexpected prints its stack.
 */
export function runCommand(name: string, command: () => Promise<void>): void {
  command().then(
    () => {
      process.exitCode = 0;
    },
    (error: unknown) => {
      if (error instanceof Failure && error.exitCode === 0) console.log(error.message); // --help
      else if (error instanceof Failure) console.error(`${name}: ${error.message}`);
      else console.error(`${name} failed:`, error);
      process.exitCode = error instanceof Failure ? error.exitCode : 1;
    },
  );
}
