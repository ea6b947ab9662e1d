import type { ProbeResult, Refusal } from '../../../machines/screen';
import { DISPLAY_HEADER, type ScreenTrend } from '../../../resources/wire/screen';
import type { SnapshotAnswer } from '../../../streams/screen';
import { type JoinedShapes, joinSnapshot, knownOf } from '../../../streams/screenSnapshot';
import type { TrendChannel } from '../../../streams/screenTrend';
import type { Envelope } from '../../api/client';
import { createHttp, RequestError } from '../../api/http';
import { site } from '../../app/config';
import { snapshotLoader } from './snapshotLoader';

/**
 * The calls of a wall screen (docs/console-screens.md "The wall screen"): each carries the link's secret in the
 * `Vigil-Display` header, never a user's token — this client has none, signs nobody out on a 401 and shows no toast:
 * the screen's own state says what went wrong.
 */

/** How long a screen call may take before it is abandoned (and tried again). */
const TIMEOUT_MS = 30_000;

/** Codes by which the server refuses a link (401: no such link, revoked, expired; 403: its tenant may not). */
const REFUSED = [401, 403];

/** Why a refusal's message says the link is refused (the server answers its messages in Chinese to this client). */
export function refusalOf(message: string): Refusal {
  if (message.includes('撤销')) return 'revoked';
  if (message.includes('过期')) return 'expired';
  return 'invalid';
}

/** The entry script of a built console page (`/assets/index-<hash>.js`), which changes with every build. */
export function entryScriptOf(html: string): string | undefined {
  return /<script[^>]*type="module"[^>]*src="([^"]+)"/.exec(html)?.[1];
}

export interface WallClient {
  /** The snapshot, or the refusal; rejects when the server does not answer (the stream tries again). */
  snapshot(): Promise<SnapshotAnswer>;
  /** Whether the server answers and accepts the link. */
  probe(): Promise<ProbeResult>;
  trend(channel: TrendChannel, hours: number, width: number): Promise<ScreenTrend>;
  /** A project's image: the screen call needs the header, so an `<img>` cannot fetch it itself. */
  image(path: string): Promise<Blob>;
  /** The server's message of the last refusal (shown under the screen's own). */
  lastRefusal(): string | undefined;
  /** Ends the snapshot worker. */
  close(): void;
}

export function wallClient(secret: string): WallClient {
  const http = createHttp({
    prefixUrl: '/',
    clientId: site.clientId,
    clientSecret: site.clientSecret,
    tokenHeader: site.tokenHeader,
    token: () => undefined,
    onUnauthorized: () => {},
    notify: () => {},
    whitelist: REFUSED,
    // Chinese: refusals are told apart by their words; the screen translates what it shows.
    language: () => 'zh',
    timeout: TIMEOUT_MS,
  });
  const headers = { [DISPLAY_HEADER]: secret };
  let refusal: string | undefined;
  const refused = (error: unknown): SnapshotAnswer | undefined => {
    if (!(error instanceof RequestError && REFUSED.includes(error.code))) return undefined;
    refusal = error.message;
    return { kind: 'refused', reason: refusalOf(error.message) };
  };
  // The snapshot is fetched, decoded and taken apart by a worker; what the page joined last is not sent again.
  const loader = snapshotLoader();
  const joined: JoinedShapes = new Map();
  const snapshot = async (): Promise<SnapshotAnswer> => {
    try {
      const decoded = await loader.load({
        url: new URL('/api/wit-xinde/screen/data', location.origin).href,
        headers: http.headers({ headers, authenticate: false }),
        timeoutMs: TIMEOUT_MS,
        known: knownOf(joined),
      });
      if ('refusal' in decoded) throw new RequestError(decoded.refusal.msg, decoded.refusal.code, true);
      refusal = undefined;
      return { kind: 'data', ...joinSnapshot(decoded.parts, joined) };
    } catch (error) {
      const answer = refused(error);
      if (answer) return answer;
      throw error;
    }
  };
  return {
    snapshot,
    probe: () =>
      snapshot().then(
        (answer): ProbeResult => (answer.kind === 'data' ? { kind: 'ok' } : { kind: 'refused', reason: answer.reason }),
        (): ProbeResult => ({ kind: 'unreachable' }),
      ),
    trend: async (channel, hours, width) =>
      (await http.get<Envelope<ScreenTrend>>('api/wit-xinde/screen/trend', { headers, authenticate: false, searchParams: { ...channel, hours, width } })).data,
    image: async (path) => (await http.download(path.replace(/^\//, ''), { headers, authenticate: false })).blob,
    lastRefusal: () => refusal,
    close: loader.close,
  };
}

/**
 * Whether the server now serves another console build than the one this page runs: its index.html names another
 * entry script. A page not built (the dev server) never reloads for that. Rejects when the server does not answer.
 */
export async function consoleChanged(): Promise<boolean> {
  const running = document.querySelector<HTMLScriptElement>('script[type="module"][src]')?.getAttribute('src') ?? undefined;
  if (!running?.includes('/assets/')) return false;
  const response = await fetch('/index.html', { cache: 'no-store' });
  if (!response.ok) throw new Error(`index.html: ${response.status}`);
  const served = entryScriptOf(await response.text());
  return served !== undefined && served !== running;
}
