const UNITS = ['B', 'KB', 'MB', 'GB', 'TB'];

/** 1536 → "1.50 KB" (attachment sizes, bytes received). */
export function humanSize(bytes: unknown): string {
  let size = Number(bytes);
  if (!Number.isFinite(size) || size < 0) return '';
  let unit = 0;
  while (size >= 1024 && unit < UNITS.length - 1) {
    size /= 1024;
    unit += 1;
  }
  return unit === 0 ? `${size} B` : `${size.toFixed(2)} ${UNITS[unit]}`;
}

