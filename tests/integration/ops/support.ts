/** Helpers of the operations suites: reading /metrics as Prometheus does. */

export interface Scrape {
  status: number;
  contentType: string | null;
  text: string;
}

/** GET /metrics with `Authorization: Bearer <token>` (none when undefined). */
export async function scrape(baseUrl: string, token: string | undefined): Promise<Scrape> {
  const response = await fetch(`${baseUrl}/metrics`, { headers: token === undefined ? {} : { authorization: `Bearer ${token}` } });
  return { status: response.status, contentType: response.headers.get('content-type'), text: await response.text() };
}

/** `a="1",b="2"` into its labels. */
function labelsOf(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const match of text.matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)) out[match[1]] = match[2];
  return out;
}

/** The samples of a metric in the exposition text, each with its labels. */
export function samples(text: string, name: string): Array<{ labels: Record<string, string>; value: number }> {
  const out: Array<{ labels: Record<string, string>; value: number }> = [];
  for (const line of text.split('\n')) {
    if (line.startsWith('#')) continue;
    const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})?\s+(\S+)/.exec(line);
    if (match && match[1] === name) out.push({ labels: labelsOf(match[2] ?? ''), value: Number(match[3]) });
  }
  return out;
}

/** The sum of a metric's samples whose labels include `labels` (0 when there is none). */
export function figure(text: string, name: string, labels: Record<string, string> = {}): number {
  return samples(text, name)
    .filter((sample) => Object.entries(labels).every(([key, value]) => sample.labels[key] === value))
    .reduce((sum, sample) => sum + sample.value, 0);
}
