/** Values per `in` list: far below the parameter limits of both databases. */
export const IN_LIST = 500;

/**
 * The values in consecutive slices of `size` (the last one shorter if they do not fill it), none for no values: how
 * every bounded statement (an `in` list, a multi-row insert) splits its values.
 */
export function slices<T>(values: readonly T[], size = IN_LIST): T[][] {
  if (!Number.isInteger(size) || size < 1) throw new RangeError(`a slice holds at least one value, not ${size}`);
  const out: T[][] = [];
  for (let i = 0; i < values.length; i += size) out.push(values.slice(i, i + size));
  return out;
}
