const pad = (n: number) => String(n).padStart(2, '0');

/** 'yyyy-MM-dd HH:mm:ss' in local time. */
export function formatDateTime(date = new Date()): string {
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())} ${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`;
}
