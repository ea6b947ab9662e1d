import { createHash, createHmac } from 'node:crypto';
import type { OutboundGuard } from '../../net/outbound';

/**
 * S3-compatible object storage (AWS S3, MinIO, Ceph RGW …) over plain HTTP with Signature Version 4, path-style
 * addressing (`<endpoint>/<bucket>/<key>`), so no SDK is needed for the three calls files use: PUT, DELETE and GET. The
 * endpoint is a tenant's: every request goes through the outbound guard (docs/push.md "Outbound addresses").
 */

export interface S3Config {
  endpoint: string;
  accessKey: string;
  secretKey: string;
  bucketName: string;
  /** Signing region; MinIO and most compatible stores accept the default. */
  region?: string | null;
}

const DEFAULT_REGION = 'us-east-1';
const TIMEOUT_MS = 30_000;

const sha256 = (data: string | Buffer) => createHash('sha256').update(data).digest('hex');
const hmac = (key: string | Buffer, data: string) => createHmac('sha256', key).update(data).digest();

/** `20130524T000000Z` and `20130524` of a moment. */
function amzDates(now: Date): { amzDate: string; day: string } {
  const amzDate = now.toISOString().replace(/[-:]/g, '').replace(/\.\d{3}/, '');
  return { amzDate, day: amzDate.slice(0, 8) };
}

export interface SignInput {
  method: string;
  /** The URL's path, already URI-encoded. */
  path: string;
  /** Headers to sign; must include host, x-amz-date and x-amz-content-sha256. */
  headers: Record<string, string>;
  payloadHash: string;
  accessKey: string;
  secretKey: string;
  region: string;
  day: string;
  amzDate: string;
}

/** The Authorization header of a request without a query string (AWS Signature Version 4, service s3). */
export function authorization(input: SignInput): string {
  const names = Object.keys(input.headers).map((n) => n.toLowerCase()).sort();
  const lower = Object.fromEntries(Object.entries(input.headers).map(([k, v]) => [k.toLowerCase(), v.trim()]));
  const canonicalHeaders = names.map((n) => `${n}:${lower[n]}\n`).join('');
  const signedHeaders = names.join(';');
  const canonicalRequest = [input.method, input.path, '', canonicalHeaders, signedHeaders, input.payloadHash].join('\n');
  const scope = `${input.day}/${input.region}/s3/aws4_request`;
  const stringToSign = ['AWS4-HMAC-SHA256', input.amzDate, scope, sha256(canonicalRequest)].join('\n');
  const key = hmac(hmac(hmac(hmac(`AWS4${input.secretKey}`, input.day), input.region), 's3'), 'aws4_request');
  const signature = createHmac('sha256', key).update(stringToSign).digest('hex');
  return `AWS4-HMAC-SHA256 Credential=${input.accessKey}/${scope}, SignedHeaders=${signedHeaders}, Signature=${signature}`;
}

export class S3Storage {
  constructor(
    private readonly config: S3Config,
    private readonly guard: OutboundGuard,
  ) {}

  /** `<endpoint>/<bucket>`: the domain of this store's links. */
  get domain(): string {
    return `${this.config.endpoint.replace(/\/+$/, '')}/${encodeURIComponent(this.config.bucketName)}`;
  }

  /** The object's URL; names are built from safe characters, each segment is still encoded. */
  urlOf(name: string): string {
    return `${this.domain}/${name.split('/').map(encodeURIComponent).join('/')}`;
  }

  /** A signed request for one object, through the outbound guard. */
  private async request(method: 'PUT' | 'DELETE' | 'GET', name: string, body?: Buffer, contentType?: string) {
    const url = new URL(this.urlOf(name));
    const payloadHash = sha256(body ?? '');
    const { amzDate, day } = amzDates(new Date());
    const signed: Record<string, string> = { host: url.host, 'x-amz-content-sha256': payloadHash, 'x-amz-date': amzDate };
    const auth = authorization({
      method,
      path: url.pathname,
      headers: signed,
      payloadHash,
      accessKey: this.config.accessKey,
      secretKey: this.config.secretKey,
      region: this.config.region || DEFAULT_REGION,
      day,
      amzDate,
    });
    const headers: Record<string, string> = { ...signed, authorization: auth };
    if (contentType) headers['content-type'] = contentType;
    const payload = body ? new Uint8Array(body) : undefined;
    return this.guard.fetch(url, { method, headers, body: payload, signal: AbortSignal.timeout(TIMEOUT_MS) });
  }

  private async send(method: 'PUT' | 'DELETE', name: string, body?: Buffer, contentType?: string): Promise<void> {
    const response = await this.request(method, name, body, contentType);
    const answer = await response.text();
    if (!response.ok && !(method === 'DELETE' && response.status === 404)) {
      throw new Error(`对象存储返回 ${response.status}: ${answer.slice(0, 200)}`);
    }
  }

  /** An object's bytes (the wall screen's image, read on the screen's behalf: its bucket need not be public). */
  async get(name: string): Promise<Buffer> {
    const response = await this.request('GET', name);
    const bytes = Buffer.from(await response.arrayBuffer());
    if (!response.ok) throw new Error(`对象存储返回 ${response.status}: ${bytes.toString('utf8', 0, 200)}`);
    return bytes;
  }

  put(name: string, body: Buffer, contentType: string): Promise<void> {
    return this.send('PUT', name, body, contentType);
  }

  remove(name: string): Promise<void> {
    return this.send('DELETE', name);
  }
}
