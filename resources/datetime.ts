const pad = (n: number) => String(n).padStart(2, '0');

/**
 * The contract's date format, `yyyy-MM-dd HH:mm:ss`, in the local time of the running process: the server's TZ
 * (dates are stored and sent in it) or the browser's zone in the console.
 */
export function formatDateTime(date: Date = new Date()): string {
  return (
    `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())} ` +
    `${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`
  );
}
