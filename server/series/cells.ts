/**
 * A cell summarises the points of one channel in one time span: enough to merge cells into larger ones exactly
 * (min, max, sum, count, and the first and last point), which is what chart buckets and rollups both are.
 */
export interface Cell {
  /** Start of the span, epoch ms. */
  t: number;
  mn: number;
  mx: number;
  sm: number;
  n: number;
  /** Time and value of the first and last point. */
  t0: number;
  v0: number;
  t1: number;
  v1: number;
}

/** Folds `cell` into `into` (both of the same span). */
export function absorb(into: Cell, cell: Cell): void {
  if (cell.mn < into.mn) into.mn = cell.mn;
  if (cell.mx > into.mx) into.mx = cell.mx;
  into.sm += cell.sm;
  into.n += cell.n;
  if (cell.t0 < into.t0) [into.t0, into.v0] = [cell.t0, cell.v0];
  if (cell.t1 > into.t1) [into.t1, into.v1] = [cell.t1, cell.v1];
}

/** Merges cells into spans of `span` ms aligned to multiples of it since the epoch, in time order. */
export function mergeInto(cells: Iterable<Cell>, span: number): Cell[] {
  const bySpan = new Map<number, Cell>();
  for (const cell of cells) {
    const t = Math.floor(cell.t / span) * span;
    const found = bySpan.get(t);
    if (found) absorb(found, cell);
    else bySpan.set(t, { ...cell, t });
  }
  return [...bySpan.values()].sort((a, b) => a.t - b.t);
}

/** Cells of `span` ms from points in time order. */
export function cellsOfPoints(points: ReadonlyArray<{ ts: number; value: number }>, span: number): Cell[] {
  const cells: Cell[] = [];
  let cell: Cell | undefined;
  for (const { ts, value } of points) {
    const t = Math.floor(ts / span) * span;
    if (cell?.t === t) absorb(cell, { t, mn: value, mx: value, sm: value, n: 1, t0: ts, v0: value, t1: ts, v1: value });
    else {
      cell = { t, mn: value, mx: value, sm: value, n: 1, t0: ts, v0: value, t1: ts, v1: value };
      cells.push(cell);
    }
  }
  return cells;
}

/** A stored rollup row (wit_device_log_rollup) as a cell. */
export function cellOfRow(row: Record<string, unknown>): Cell {
  return { t: Number(row.bucket), mn: Number(row.mn), mx: Number(row.mx), sm: Number(row.sm), n: Number(row.n), t0: Number(row.t0), v0: Number(row.v0), t1: Number(row.t1), v1: Number(row.v1) };
}
