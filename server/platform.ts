import type { FastifyBaseLogger } from 'fastify';
import type { Resource } from '../resources/define';
import type { DisplayLinks } from './auth/display';
import type { RightsService } from './auth/rights';
import type { ScopeService } from './auth/scopes';
import type { RevocationList } from './auth/revocations';
import type { SignInGuard } from './auth/sign-in-guard';
import type { SocialProvider } from './auth/social';
import type { TokenService } from './auth/tokens';
import type { Secrets } from './auth/secrets';
import type { KeyValueStore } from './cache';
import type { Leases } from './cluster/leases';
import type { Config } from './config';
import type { Db, DialectName, NativeDb } from './db/database';
import { Repository } from './db/repository';
import type { EventBus } from './events';
import type { LogWriter } from './logs';
import type { Recorder } from './observe/metrics';

/** The services every module is handed: built once in buildApp, in dependency order. */
export interface Platform {
  config: Config;
  db: Db;
  dialect: DialectName;
  /** The driver under db, for hot paths only. */
  native: NativeDb;
  events: EventBus;
  scopes: ScopeService;
  /** What each caller may call: the declared rights of routes against their roles' grants. */
  rights: RightsService;
  tokens: TokenService;
  revocations: RevocationList;
  /** Wall screens' display links: their credentials, looked up by hash (docs/wall-screen.md). */
  displays: DisplayLinks;
  logs: LogWriter;
  /** What the deployment's processes decide together: periodic jobs' turns and named leases (server/cluster). */
  leases: Leases;
  /** The process log: JSON lines on stdout, secrets redacted (server/observe/logging.ts). */
  log: FastifyBaseLogger;
  /** Figures for /metrics the event bus does not carry (server/observe/metrics.ts): counter steps, never per reading. */
  metrics: Recorder;
  store: KeyValueStore;
  /** Seals and opens the secrets kept to connect elsewhere (server/auth/secrets.ts, docs/security.md). */
  secrets: Secrets;
  /** Failed passwords, captcha demands and per-address locks of sign-in (docs/sign-in.md). */
  signIn: SignInGuard;
  social: ReadonlyMap<string, SocialProvider>;
  /** The scoped repository of a declared resource: its rows typed by the declaration. */
  repo<R extends Resource>(resource: R): Repository<R>;
  /** Every resource that has generic routes, in registration order (the tenant-isolation suite walks them). */
  resources: Resource[];
}

export function repositoryCache(deps: Pick<Platform, 'db' | 'dialect' | 'scopes' | 'events' | 'secrets'>): Platform['repo'] {
  const cache = new Map<string, Repository>();
  return <R extends Resource>(resource: R) => {
    let repo = cache.get(resource.key);
    if (!repo) {
      repo = new Repository<Resource>(resource, deps);
      cache.set(resource.key, repo);
    }
    // One repository per resource key, made from this very resource.
    return repo as Repository<R>;
  };
}
