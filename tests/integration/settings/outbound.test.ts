import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiClient, type Envelope, signedIn } from '../../support/client';
import { storeKinds } from '../../support/databases';
import { expectOk, expectRefused, type PageData } from '../../support/envelope';
import { GUARDED, startServer, type TestServer } from '../../support/server';

/**
 * The outbound guard on object storage and SMS gateways (docs/push.md "Outbound addresses"): a server started as a
 * deployment is, without OUTBOUND_ALLOW_PRIVATE, refuses S3 endpoints and SMS gateways on its own network when they are
 * saved, and again at every request (an upload, the SMS test call), redirects included; nothing reaches the local
 * peers standing there. With OUTBOUND_ALLOW naming 127.0.0.1, uploads and messages go there.
 */

const REFUSED = '指向内网或本机,已拒绝 (OUTBOUND_ALLOW_PRIVATE)';
/** Public-looking names that never resolve (RFC 6761): saved, then turned into local addresses in the tables. */
const NOWHERE = { s3: 'http://s3.example.invalid', sms: 'http://sms.example.invalid/send' };
const TENANT = '100001';

/** A local HTTP peer (S3 endpoint, SMS gateway) on one loopback address; `/moved` redirects to `redirectTo`. */
class Peer {
  readonly received: Array<{ method: string; url: string }> = [];
  origin = '';
  redirectTo = '';
  private server?: Server;

  async start(host: string): Promise<void> {
    this.server = createServer((req: IncomingMessage, res) => {
      req.resume();
      req.on('end', () => {
        this.received.push({ method: req.method ?? '', url: req.url ?? '' });
        if (req.url === '/moved') res.writeHead(307, { location: this.redirectTo }).end();
        else res.writeHead(200, { 'content-type': 'application/json' }).end('{"code":0}');
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, host, resolve));
    this.origin = `http://${host}:${(this.server!.address() as AddressInfo).port}`;
  }

  stop(): Promise<void> {
    return new Promise((resolve) => this.server?.close(() => resolve()) ?? resolve());
  }
}

describe.each(await storeKinds())('outbound guard on object storage and SMS gateways on %s', (store) => {
  let guarded: TestServer;
  let allowing: TestServer;
  const peer = new Peer();
  /** On 127.0.0.2: loopback too, but not in the allowing server's OUTBOUND_ALLOW. */
  const other = new Peer();
  const clients = new Map<TestServer, ApiClient>();
  const api = (server: TestServer) => clients.get(server)!;

  const s3Config = (endpoint: string) => ({ category: 2, ossCode: 'bucket', endpoint, accessKey: 'ak', secretKey: 'sk', bucketName: 'photos' });
  const smsConfig = (endpoint: string, category = 1) => ({ category, smsCode: 'gw', templateId: 'T1', endpoint });
  const save = (server: TestServer, kind: 'oss' | 'sms', body: Record<string, unknown>) => api(server).post<{ id: string }>(`/api/blade-resource/${kind}/submit`, body);
  const enable = async (server: TestServer, kind: 'oss' | 'sms', id: string) => expectOk(await api(server).post(`/api/blade-resource/${kind}/enable`, undefined, { id }));
  const countOf = async (server: TestServer, kind: 'oss' | 'sms') => expectOk(await api(server).get<PageData>(`/api/blade-resource/${kind}/list`)).total;
  const repoint = (server: TestServer, table: 'blade_oss' | 'blade_sms', id: string, endpoint: string) =>
    server.app.platform.db.updateTable(table).set({ endpoint }).where('id', '=', id).execute();
  const sendSms = (server: TestServer) => api(server).post('/api/blade-resource/sms/endpoint/send-message', undefined, { phones: '13800138000' });
  async function upload(server: TestServer, filename: string) {
    const form = new FormData();
    form.append('file', new Blob(['crack photo']), filename);
    const response = await fetch(`${server.url}/api/blade-resource/oss/endpoint/put-file`, { method: 'POST', headers: api(server).headers(), body: form });
    return { status: response.status, body: (await response.json()) as Envelope<{ domain: string; name: string }> };
  }

  beforeAll(async () => {
    await peer.start('127.0.0.1');
    await other.start('127.0.0.2');
    guarded = await startServer(store, GUARDED);
    allowing = await startServer(store, { outbound: { allowPrivate: false, allow: ['127.0.0.1/32'] } });
    for (const server of [guarded, allowing]) clients.set(server, await signedIn(server.url, 'admin', 'admin', TENANT));
  });
  afterAll(async () => {
    await guarded?.stop();
    await allowing?.stop();
    await peer.stop();
    await other.stop();
  });

  it('refuses S3 endpoints and SMS gateways on the platform’s own network when they are saved, and writes nothing', async () => {
    const local = [peer.origin, peer.origin.replace('127.0.0.1', 'localhost'), 'http://[::1]:9000', 'http://169.254.169.254', 'https://10.0.0.8:9000'];
    for (const endpoint of local) {
      expectRefused(await save(guarded, 'oss', s3Config(endpoint)), REFUSED);
      expectRefused(await save(guarded, 'sms', smsConfig(endpoint)), REFUSED);
    }
    expect(await countOf(guarded, 'oss')).toBe(0);
    expect(await countOf(guarded, 'sms')).toBe(0);

    // An edit to a local address is refused and leaves the row alone; so is turning a log-only SMS config into a
    // gateway whose address is local. Other edits are fine.
    const s3 = expectOk(await save(guarded, 'oss', s3Config(NOWHERE.s3)));
    expectRefused(await save(guarded, 'oss', { id: s3.id, endpoint: peer.origin }), `目标地址 127.0.0.1 ${REFUSED}`);
    expect(expectOk(await api(guarded).get<{ endpoint: string }>('/api/blade-resource/oss/detail', { id: s3.id })).endpoint).toBe(NOWHERE.s3);
    expectOk(await save(guarded, 'oss', { id: s3.id, remark: '仍可修改' }));
    const logOnly = expectOk(await save(guarded, 'sms', smsConfig(peer.origin, 2)));
    expectRefused(await save(guarded, 'sms', { id: logOnly.id, category: 1 }), REFUSED);
    expect(expectOk(await api(guarded).get<{ category: number }>('/api/blade-resource/sms/detail', { id: logOnly.id })).category).toBe(2);
    expect(peer.received).toEqual([]);
  });

  it('refuses an upload and the SMS test call when the saved address now leads to this machine', async () => {
    const [s3] = expectOk(await api(guarded).get<PageData<{ id: string }>>('/api/blade-resource/oss/list', { ossCode: 'bucket' })).records;
    await enable(guarded, 'oss', s3.id);
    for (const [endpoint, host] of [
      [peer.origin.replace('127.0.0.1', 'localhost'), 'localhost'],
      [peer.origin, '127.0.0.1'],
    ]) {
      await repoint(guarded, 'blade_oss', s3.id, endpoint);
      expectRefused(await upload(guarded, 'refused.txt'), `文件上传失败: 目标地址 ${host} ${REFUSED}`);
    }
    expect(expectOk(await api(guarded).get<PageData>('/api/blade-resource/attach/list', { originalName: 'refused.txt' })).total).toBe(0);

    const sms = expectOk(await save(guarded, 'sms', { ...smsConfig(NOWHERE.sms), smsCode: 'gw-remote' }));
    await enable(guarded, 'sms', sms.id);
    await repoint(guarded, 'blade_sms', sms.id, `${peer.origin.replace('127.0.0.1', 'localhost')}/send`);
    expectRefused(await sendSms(guarded), `短信发送失败: 目标地址 localhost ${REFUSED}`);
    await guarded.app.platform.logs.flush();
    const [logged] = expectOk(await api(guarded).get<PageData<{ logLevel: string; logData: string }>>('/api/blade-log/usual/list', { logId: 'sms' })).records;
    expect(logged.logLevel).toBe('ERROR');
    expect(JSON.parse(logged.logData).detail).toBe(`目标地址 localhost ${REFUSED}`);
    expect(peer.received).toEqual([]);
  });

  it('reaches a private address that OUTBOUND_ALLOW names, and refuses the ones it does not, redirects included', async () => {
    expectRefused(await save(allowing, 'oss', s3Config(other.origin)), `目标地址 127.0.0.2 ${REFUSED}`);
    const s3 = expectOk(await save(allowing, 'oss', s3Config(peer.origin)));
    await enable(allowing, 'oss', s3.id);
    const file = expectOk(await upload(allowing, 'allowed.txt'));
    expect(file.domain).toBe(`${peer.origin}/photos`);
    expect(peer.received).toEqual([{ method: 'PUT', url: `/photos/${file.name}` }]);

    expectRefused(await save(allowing, 'sms', smsConfig(`${other.origin}/send`)), `目标地址 127.0.0.2 ${REFUSED}`);
    const sms = expectOk(await save(allowing, 'sms', smsConfig(`${peer.origin}/send`)));
    await enable(allowing, 'sms', sms.id);
    expectOk(await sendSms(allowing));
    expect(peer.received.at(-1)).toEqual({ method: 'POST', url: '/send' });

    // An allowed gateway that redirects to an address the guard refuses: the redirect is judged like any connection.
    peer.redirectTo = `${other.origin}/send`;
    expectOk(await save(allowing, 'sms', { id: sms.id, endpoint: `${peer.origin}/moved` }));
    expectRefused(await sendSms(allowing), `短信发送失败: 目标地址 127.0.0.2 ${REFUSED}`);
    expect(peer.received.at(-1)).toEqual({ method: 'POST', url: '/moved' });
    expect(other.received).toEqual([]);
  });
});
