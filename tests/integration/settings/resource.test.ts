import { createHash, createHmac } from 'node:crypto';
import { existsSync, readdirSync } from 'node:fs';
import { createServer, request as httpRequest, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { oss } from '../../../resources/resource/oss';
import { sms } from '../../../resources/resource/sms';
import { authorization } from '../../../server/modules/blade-resource/s3';
import type { ApiClient, Envelope } from '../../support/client';
import { expectOk, expectRefused, type PageData, type Row } from '../../support/envelope';
import { onEveryStore } from '../../support/suite';
import { createStaff, grantScope } from './support';

interface Uploaded {
  link: string;
  domain: string;
  name: string;
  originalName: string;
  attachId: string;
}

const UPLOAD_LIMIT = 64 * 1024;

/** A local HTTP peer (SMS gateway, S3 endpoint): records every request and answers with the status the test sets. */
class Receiver {
  readonly received: Array<{ method: string; url: string; headers: IncomingMessage['headers']; body: string; bytes: Buffer }> = [];
  status = 200;
  private server?: Server;
  origin = '';

  async start(): Promise<void> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const bytes = Buffer.concat(chunks);
        this.received.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: bytes.toString(), bytes });
        res.writeHead(this.status, { 'content-type': 'application/json' }).end(JSON.stringify({ code: this.status === 200 ? 0 : 1 }));
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.origin = `http://127.0.0.1:${(this.server!.address() as AddressInfo).port}`;
  }

  stop(): Promise<void> {
    return new Promise((resolve) => this.server?.close(() => resolve()) ?? resolve());
  }
}

/** GET with the path sent byte for byte (fetch would normalise dot segments away). */
function rawGet(base: string, path: string): Promise<number> {
  const url = new URL(base);
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: url.hostname, port: url.port, path, method: 'GET' }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', reject);
    req.end();
  });
}

onEveryStore('OSS, SMS and attachments', { signIn: ['admin', 'demo'], config: { uploadLimit: UPLOAD_LIMIT } }, (ctx) => {
  const gateway = new Receiver();
  const s3 = new Receiver();
  beforeAll(async () => {
    await gateway.start();
    await s3.start();
  });
  afterAll(async () => {
    await gateway.stop();
    await s3.stop();
  });

  async function upload(client: ApiClient, content: Buffer | string, filename: string, field = 'file') {
    const form = new FormData();
    form.append(field, new Blob([typeof content === 'string' ? content : new Uint8Array(content)]), filename);
    const response = await fetch(`${ctx.server.url}/api/blade-resource/oss/endpoint/put-file`, { method: 'POST', headers: client.headers(), body: form });
    return { status: response.status, body: (await response.json()) as Envelope<Uploaded> };
  }

  /** A list export's rows (titles first) as cell values. */
  async function exportedRows(client: ApiClient, path: string, columns: readonly string[]): Promise<unknown[][]> {
    const url = new URL(path, ctx.server.url);
    url.searchParams.set('columns', columns.map((c) => `${c}:${c}`).join(','));
    const response = await fetch(url, { headers: client.headers() });
    expect(response.headers.get('content-type')).toContain('spreadsheetml');
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(await response.arrayBuffer());
    const rows: unknown[][] = [];
    workbook.worksheets[0].eachRow((row) => rows.push((row.values as unknown[]).slice(1)));
    return rows;
  }

  /**
   * No read of a config answers its secret key: the list (also when asked to filter or sort by the key), the detail, an
   * export of every column it may name (one naming the key is refused). The resources have no select variant.
   */
  async function expectKeyNeverAnswered(client: ApiClient, resource: typeof oss | typeof sms, id: string, accessKey: string, secrets: readonly string[]): Promise<void> {
    const base = `/api/blade-resource/${resource.name}`;
    const list = expectOk(await client.get<PageData>(`${base}/list`, { size: 100 }));
    const detail = expectOk(await client.get<Row>(`${base}/detail`, { id }));
    const listed = list.records.find((r) => r.id === id);
    for (const answer of [listed, detail]) {
      expect(answer).toMatchObject({ id, accessKey });
      expect(answer).not.toHaveProperty('secretKey');
    }
    const filtered = expectOk(await client.get<PageData>(`${base}/list`, { secretKey: 'not-the-key', size: 100 }));
    expect(filtered.total).toBe(list.total);
    // Nor is a list sorted by it: rows saved with chosen keys would find a stored one by bisection.
    const order = (page: PageData) => page.records.map((r) => r.id);
    for (const sort of ['ascs', 'descs']) expect(order(expectOk(await client.get<PageData>(`${base}/list`, { [sort]: 'secretKey', size: 100 })))).toEqual(order(list));
    expectRefused(await client.get(`${base}/export`, { columns: 'secretKey:secretKey' }), '字段 secretKey 不能导出');
    const columns = resource.columns.filter((c) => c !== 'secretKey');
    const sheet = await exportedRows(client, `${base}/export`, columns);
    expect(sheet.slice(1).map((row) => row[columns.indexOf('id')])).toContain(id);
    const answered = JSON.stringify([list, filtered, detail, sheet]);
    expect(answered).toContain(accessKey);
    for (const secret of secrets) expect(answered).not.toContain(secret);
  }

  /** The API log records write bodies (a browser reads it) with the key masked. */
  async function expectKeyMaskedInLog(client: ApiClient, path: string, accessKey: string, secrets: readonly string[]): Promise<void> {
    await ctx.server.app.platform.logs.flush();
    const logged = JSON.stringify(expectOk(await client.get<PageData>('/api/blade-log/api/list', { requestUri: path, size: 100 })).records);
    expect(logged).toContain(accessKey);
    for (const secret of secrets) expect(logged).not.toContain(secret);
  }

  it('keeps OSS configs per tenant with one enabled at a time', async () => {
    const invalid = await ctx.admin.post('/api/blade-resource/oss/submit', { category: 2, ossCode: 's3-main' });
    expect(invalid.status).toBe(400);
    expect(invalid.body.msg).toContain('请输入资源地址');
    expect((await ctx.admin.post('/api/blade-resource/oss/submit', { category: 1 })).body.msg).toContain('请输入资源编号');

    const local = expectOk(await ctx.admin.post<{ id: string; status: number }>('/api/blade-resource/oss/submit', { category: 1, ossCode: 'local', remark: '本地' }));
    expect(local.status).toBe(1);
    const s3 = expectOk(
      await ctx.admin.post<{ id: string }>('/api/blade-resource/oss/submit', {
        category: 2, ossCode: 's3-main', endpoint: 'http://127.0.0.1:9', accessKey: 'ak', secretKey: 'sk', bucketName: 'vigil',
      }),
    );
    const tenantOwn = expectOk(await ctx.demo.post<{ id: string }>('/api/blade-resource/oss/submit', { category: 1, ossCode: 'local' }));
    expectOk(await ctx.demo.post('/api/blade-resource/oss/enable', undefined, { id: tenantOwn.id }));

    const statusOf = async () =>
      Object.fromEntries(expectOk(await ctx.admin.get<PageData>('/api/blade-resource/oss/list', { size: 50 })).records.map((r) => [r.id, r.status]));
    expectOk(await ctx.admin.post('/api/blade-resource/oss/enable', undefined, { id: local.id }));
    expect(await statusOf()).toMatchObject({ [local.id]: 2, [s3.id]: 1, [tenantOwn.id]: 2 });
    expectOk(await ctx.admin.post('/api/blade-resource/oss/enable', undefined, { id: s3.id }));
    expect(await statusOf()).toMatchObject({ [local.id]: 1, [s3.id]: 2, [tenantOwn.id]: 2 });

    expectOk(await ctx.admin.post('/api/blade-resource/oss/enable', undefined, { id: local.id }));

    // A staff member who sees only the configs it made still switches off the one its administrator enabled.
    const keeper = await createStaff(ctx.server, '100001', 'oss_keeper');
    const ownRows = expectOk(await ctx.admin.post<{ id: string }>('/api/blade-system/data-scope/submit', { menuId: '1', resourceCode: 'blade-resource/oss', scopeName: '本人的存储配置', scopeType: 2 })).id;
    await grantScope(ctx.server, keeper.roleId, ownRows, 1);
    const keepers = expectOk(await keeper.client.post<{ id: string }>('/api/blade-resource/oss/submit', { category: 1, ossCode: 'keeper-local' }));
    expect(expectOk(await keeper.client.get<PageData>('/api/blade-resource/oss/list')).records.map((r) => r.id)).toEqual([keepers.id]);
    expectOk(await keeper.client.post('/api/blade-resource/oss/enable', undefined, { id: keepers.id }));
    expect(await statusOf()).toMatchObject({ [tenantOwn.id]: 1, [keepers.id]: 2, [local.id]: 2 });
    expectOk(await ctx.demo.post('/api/blade-resource/oss/enable', undefined, { id: tenantOwn.id }));

    // Another tenant can neither see nor switch these configs.
    const visible = expectOk(await ctx.demo.get<PageData>('/api/blade-resource/oss/list', { size: 50 })).records;
    expect(visible.map((r) => r.id).sort()).toEqual([tenantOwn.id, keepers.id].sort());
    expect((await ctx.demo.post('/api/blade-resource/oss/enable', undefined, { id: s3.id })).body.msg).toBe('数据不存在或无权操作');
  });

  it('uploads, serves, lists and removes files, refusing oversized uploads and traversal', async () => {
    const content = Buffer.from('crack width 0.21 mm\n');
    const reply = await upload(ctx.admin, content, 'report.txt');
    const file = expectOk({ status: reply.status, body: reply.body });
    expect(file.originalName).toBe('report.txt');
    expect(file.name).toMatch(/^000000\/\d{8}\/[0-9a-f]{32}\.txt$/);
    expect(file.link).toBe(`${file.domain}/${file.name}`);
    expect(existsSync(join(ctx.server.dataDir, 'upload', ...file.name.split('/')))).toBe(true);

    const download = await fetch(file.link);
    expect(download.status).toBe(200);
    expect(download.headers.get('content-type')).toContain('text/plain');
    expect(Buffer.from(await download.arrayBuffer()).equals(content)).toBe(true);

    const attach = expectOk(await ctx.admin.get<Record<string, unknown>>('/api/blade-resource/attach/detail', { id: file.attachId }));
    expect(attach).toMatchObject({ name: file.name, originalName: 'report.txt', extension: 'txt', attachSize: content.length, tenantId: '000000' });
    expect(expectOk(await ctx.admin.get<PageData>('/api/blade-resource/attach/list', { originalName: 'report' })).total).toBe(1);
    expect((await ctx.admin.post('/api/blade-resource/attach/submit', { link: 'x', name: 'y' })).status).toBe(404); // rows come from uploads only

    // A hostile file name is only a display name; the stored name is the server's.
    const hostile = expectOk(await upload(ctx.admin, '<script>alert(1)</script>', '../../../evil.html'));
    expect(hostile.originalName).toBe('evil.html');
    expect(hostile.name).toMatch(/^000000\/\d{8}\/[0-9a-f]{32}\.html$/);
    const served = await fetch(hostile.link);
    expect(served.headers.get('content-disposition')).toMatch(/^attachment/);
    expect(readdirSync(ctx.server.dataDir).filter((name) => name.includes('evil'))).toEqual([]);

    const day = file.name.split('/')[1];
    const base = `/api/blade-resource/oss/endpoint/file/000000/${day}`;
    for (const path of [`${base}/..%2f..%2f..%2fjwt-secret`, `${base}/%2e%2e%2fjwt-secret`, '/api/blade-resource/oss/endpoint/file/000000/..%2f..%2f/jwt-secret', `${base}/${'0'.repeat(32)}.txt`]) {
      expect(await rawGet(ctx.server.url, path)).toBe(404);
    }

    const big = await upload(ctx.admin, Buffer.alloc(UPLOAD_LIMIT + 10_000, 7), 'big.bin');
    expect(big.status).toBe(413);
    expect(big.body).toMatchObject({ code: 413, success: false, msg: '上传文件过大' });
    expect(expectOk(await ctx.admin.get<PageData>('/api/blade-resource/attach/list', { originalName: 'big' })).total).toBe(0);

    const viaAttachCall = await fetch(`${ctx.server.url}/api/blade-resource/oss/endpoint/put-file-attach`, {
      method: 'POST', headers: ctx.admin.headers(), body: (() => { const f = new FormData(); f.append('file', new Blob(['a,b\n1,2\n']), 'data.csv'); return f; })(),
    });
    const viaAttach = (await viaAttachCall.json()) as Envelope<Uploaded>;
    expect(viaAttach.data).toMatchObject({ originalName: 'data.csv' });
    expect(expectOk(await ctx.admin.get<Record<string, unknown>>('/api/blade-resource/attach/detail', { id: viaAttach.data.attachId })).extension).toBe('csv');

    const notMultipart = await ctx.admin.post('/api/blade-resource/oss/endpoint/put-file', { file: 'x' });
    expect(notMultipart.status).toBe(415);
    expect((await upload(ctx.admin, 'x', 'a.txt', 'other')).body.msg).toBe('请选择要上传的文件');

    // Other tenants neither list nor remove it; removing it removes the file.
    expect(expectOk(await ctx.demo.get<PageData>('/api/blade-resource/attach/list')).total).toBe(0);
    expect((await ctx.demo.post('/api/blade-resource/attach/remove', undefined, { ids: file.attachId })).status).toBe(400);
    expect((await fetch(file.link)).status).toBe(200);
    expectOk(await ctx.admin.post('/api/blade-resource/attach/remove', undefined, { ids: file.attachId }));
    expect(existsSync(join(ctx.server.dataDir, 'upload', ...file.name.split('/')))).toBe(false);
    expect((await fetch(file.link)).status).toBe(404);
  });

  it('stores uploads in an S3-compatible bucket when one is enabled, signed with AWS Signature Version 4', async () => {
    // The signer against the example of the AWS documentation (GET Object, "Example: GET Object").
    const example = authorization({
      method: 'GET', path: '/test.txt', payloadHash: createHash('sha256').update('').digest('hex'),
      headers: { host: 'examplebucket.s3.amazonaws.com', range: 'bytes=0-9', 'x-amz-content-sha256': createHash('sha256').update('').digest('hex'), 'x-amz-date': '20130524T000000Z' },
      accessKey: 'AKIAIOSFODNN7EXAMPLE', secretKey: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY', region: 'us-east-1', day: '20130524', amzDate: '20130524T000000Z',
    });
    expect(example).toBe(
      'AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request, SignedHeaders=host;range;x-amz-content-sha256;x-amz-date, Signature=f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41',
    );

    const config = expectOk(
      await ctx.demo.post<{ id: string }>('/api/blade-resource/oss/submit', {
        category: 2, ossCode: 'minio', endpoint: s3.origin, accessKey: 'tenant-ak', secretKey: 'tenant-sk', bucketName: 'photos', region: 'cn-east-1',
      }),
    );
    expectOk(await ctx.demo.post('/api/blade-resource/oss/enable', undefined, { id: config.id }));
    const content = Buffer.from([0x89, 0x50, 0x4e, 0x47, 1, 2, 3, 4]);
    const file = expectOk(await upload(ctx.demo, content, 'crack.png'));
    expect(file.domain).toBe(`${s3.origin}/photos`);
    expect(file.name).toMatch(/^100001\/\d{8}\/[0-9a-f]{32}\.png$/);
    expect(file.link).toBe(`${s3.origin}/photos/${file.name}`);

    const put = s3.received.at(-1)!;
    expect(put.method).toBe('PUT');
    expect(put.url).toBe(`/photos/${file.name}`);
    expect(put.bytes.equals(content)).toBe(true);
    expect(put.headers['content-type']).toBe('image/png');
    expect(put.headers['x-amz-content-sha256']).toBe(createHash('sha256').update(content).digest('hex'));
    const amzDate = String(put.headers['x-amz-date']);
    expect(amzDate).toMatch(/^\d{8}T\d{6}Z$/);
    expect(put.headers.authorization).toBe(
      authorization({
        method: 'PUT', path: put.url, payloadHash: String(put.headers['x-amz-content-sha256']),
        headers: { host: String(put.headers.host), 'x-amz-content-sha256': String(put.headers['x-amz-content-sha256']), 'x-amz-date': amzDate },
        accessKey: 'tenant-ak', secretKey: 'tenant-sk', region: 'cn-east-1', day: amzDate.slice(0, 8), amzDate,
      }),
    );
    expect(existsSync(join(ctx.server.dataDir, 'upload', '100001'))).toBe(false);

    s3.status = 503;
    const failed = await upload(ctx.demo, 'x', 'b.txt');
    expect(failed.status).toBe(400);
    expect(failed.body.msg).toContain('文件上传失败');
    expect(expectOk(await ctx.demo.get<PageData>('/api/blade-resource/attach/list', { originalName: 'b.txt' })).total).toBe(0);
    s3.status = 200;

    expectOk(await ctx.demo.post('/api/blade-resource/attach/remove', undefined, { ids: file.attachId }));
    const removed = s3.received.at(-1)!;
    expect(removed.method).toBe('DELETE');
    expect(removed.url).toBe(`/photos/${file.name}`);
    expect(removed.headers.authorization).toMatch(/^AWS4-HMAC-SHA256 Credential=tenant-ak\/\d{8}\/cn-east-1\/s3\/aws4_request, SignedHeaders=host;x-amz-content-sha256;x-amz-date, Signature=[0-9a-f]{64}$/);
  });

  it('sends SMS through the enabled gateway and logs every attempt', async () => {
    const needsEndpoint = await ctx.admin.post('/api/blade-resource/sms/submit', { category: 1, smsCode: 'gw', templateId: 'T1' });
    expect(needsEndpoint.body.msg).toContain('请输入短信网关地址');
    expect((await ctx.admin.post('/api/blade-resource/sms/submit', { category: 1, smsCode: 'gw' })).body.msg).toContain('请输入模板ID');
    const gw = expectOk(
      await ctx.admin.post<{ id: string }>('/api/blade-resource/sms/submit', { category: 1, smsCode: 'gw', templateId: 'ALARM_01', signName: 'Vigil', accessKey: 'ak-1', secretKey: 'sk-1', endpoint: `${gateway.origin}/sms/send` }),
    );
    const send = (query: Record<string, string>) => ctx.admin.post('/api/blade-resource/sms/endpoint/send-message', undefined, query);

    expect((await send({ phones: '13800138000', params: '{}' })).body.msg).toBe('未启用短信配置');
    expectOk(await ctx.admin.post('/api/blade-resource/sms/enable', undefined, { id: gw.id }));
    expect((await send({ phones: '1380013800' })).body.msg).toContain('手机号码长度不为11位');
    expect((await send({ phones: '12800138000' })).body.msg).toContain('手机号码格式不正确');
    expect((await send({ phones: '13800138000', params: 'not json' })).body.msg).toContain('参数应为 JSON 对象');

    expectOk(await send({ phones: '13800138000,13900139000', params: JSON.stringify({ point: 'P-01', value: '12.5' }) }));
    expect(gateway.received).toHaveLength(1);
    const [delivery] = gateway.received;
    expect(JSON.parse(delivery.body)).toEqual({
      templateId: 'ALARM_01', signName: 'Vigil', accessKey: 'ak-1', regionId: null, phones: ['13800138000', '13900139000'], params: { point: 'P-01', value: '12.5' },
    });
    expect(delivery.headers['x-sms-signature']).toBe(createHmac('sha256', 'sk-1').update(delivery.body).digest('hex'));

    gateway.status = 500;
    const failed = await send({ phones: '13800138000' });
    expect(failed.status).toBe(400);
    expect(failed.body.msg).toContain('短信发送失败');

    // A log-only config named by code sends nowhere but is recorded too.
    expectOk(await ctx.admin.post('/api/blade-resource/sms/submit', { category: 2, smsCode: 'dev', templateId: 'T2' }));
    expectOk(await ctx.admin.post('/api/blade-resource/sms/endpoint/send-message', { code: 'dev', phones: '13700137000', params: { a: 1 } }));
    expect(gateway.received).toHaveLength(2);

    await ctx.server.app.platform.logs.flush();
    const logs = expectOk(await ctx.admin.get<PageData<{ logLevel: string; logData: string }>>('/api/blade-log/usual/list', { logId: 'sms', size: 50 })).records;
    expect(logs.map((l) => l.logLevel).sort()).toEqual(['ERROR', 'INFO', 'INFO']);
    expect(logs.some((l) => JSON.parse(l.logData).smsCode === 'dev')).toBe(true);
    expect(expectOk(await ctx.demo.get<PageData>('/api/blade-resource/sms/list')).total).toBe(0);
    expect(expectOk(await ctx.demo.get<PageData>('/api/blade-log/usual/list', { logId: 'sms' })).total).toBe(0);
  });

  it('never answers an S3 secret key; an edit without one keeps it for signing, one with a new key replaces it', async () => {
    const keys = ['Vault+Secret/One', 'Vault+Secret/Two'] as const;
    const saved = expectOk(
      await ctx.demo.post<Row>('/api/blade-resource/oss/submit', {
        category: 2, ossCode: 'vault', endpoint: s3.origin, accessKey: 'vault-ak', secretKey: keys[0], bucketName: 'vault', region: 'cn-north-1',
      }),
    );
    expect(saved).toMatchObject({ ossCode: 'vault', accessKey: 'vault-ak' });
    expect(saved).not.toHaveProperty('secretKey');
    // A config without a key beside it: a list sorted by the key would order the two.
    const local = expectOk(await ctx.demo.post<Row>('/api/blade-resource/oss/submit', { category: 1, ossCode: 'vault-local', accessKey: 'local-ak' }));
    await expectKeyNeverAnswered(ctx.demo, oss, saved.id, 'vault-ak', keys);
    await expectKeyNeverAnswered(ctx.admin, oss, saved.id, 'vault-ak', keys);
    expectOk(await ctx.demo.post('/api/blade-resource/oss/enable', undefined, { id: saved.id }));

    /** The last request the bucket got was `method` of `name`, signed with these keys. */
    const expectSigned = (method: string, name: string, accessKey: string, secretKey: string) => {
      const got = s3.received.at(-1)!;
      expect(got).toMatchObject({ method, url: `/vault/${name}` });
      const amzDate = String(got.headers['x-amz-date']);
      const payloadHash = String(got.headers['x-amz-content-sha256']);
      expect(got.headers.authorization).toBe(
        authorization({
          method, path: got.url, payloadHash, headers: { host: String(got.headers.host), 'x-amz-content-sha256': payloadHash, 'x-amz-date': amzDate },
          accessKey, secretKey, region: 'cn-north-1', day: amzDate.slice(0, 8), amzDate,
        }),
      );
    };
    const uploadSignedWith = async (accessKey: string, secretKey: string) => {
      const file = expectOk(await upload(ctx.demo, 'vault', 'vault.txt'));
      expectSigned('PUT', file.name, accessKey, secretKey);
      return file;
    };
    await uploadSignedWith('vault-ak', keys[0]);

    // An edit without the key (left out, or blank as a form leaves it) passes the S3 check and keeps the stored key.
    const edited = expectOk(await ctx.demo.post<Row>('/api/blade-resource/oss/submit', { id: saved.id, remark: '改备注' }));
    expect(edited).toMatchObject({ remark: '改备注', accessKey: 'vault-ak' });
    expect(edited).not.toHaveProperty('secretKey');
    await uploadSignedWith('vault-ak', keys[0]);
    expectOk(
      await ctx.demo.post('/api/blade-resource/oss/update', {
        id: saved.id, category: 2, ossCode: 'vault', endpoint: s3.origin, accessKey: 'vault-ak-2', secretKey: '', bucketName: 'vault', region: 'cn-north-1',
      }),
    );
    const kept = await uploadSignedWith('vault-ak-2', keys[0]);
    expectOk(await ctx.demo.post('/api/blade-resource/attach/remove', undefined, { ids: kept.attachId }));
    expectSigned('DELETE', kept.name, 'vault-ak-2', keys[0]);

    // A new key replaces it; clearing it is refused while the config is S3, and the stored key stays.
    expectOk(await ctx.demo.post('/api/blade-resource/oss/submit', { id: saved.id, secretKey: keys[1] }));
    await uploadSignedWith('vault-ak-2', keys[1]);
    expectRefused(await ctx.demo.post('/api/blade-resource/oss/submit', { id: saved.id, secretKey: null }), '请输入secretKey');
    await uploadSignedWith('vault-ak-2', keys[1]);
    await expectKeyNeverAnswered(ctx.demo, oss, saved.id, 'vault-ak-2', keys);

    // A local config made S3 has no stored key to keep.
    expectRefused(
      await ctx.demo.post('/api/blade-resource/oss/submit', { id: local.id, category: 2, endpoint: s3.origin, accessKey: 'vault-ak', secretKey: '', bucketName: 'vault' }),
      '请输入secretKey',
    );
    await expectKeyMaskedInLog(ctx.demo, '/blade-resource/oss/', 'vault-ak', keys);
  });

  it('never answers an SMS secret key; an edit without one keeps it for signing, one with a new key replaces it', async () => {
    const keys = ['Sms+Secret/One', 'Sms+Secret/Two'] as const;
    const saved = expectOk(
      await ctx.admin.post<Row>('/api/blade-resource/sms/submit', {
        category: 1, smsCode: 'signed', templateId: 'SIGNED_01', accessKey: 'sms-ak', secretKey: keys[0], endpoint: `${gateway.origin}/sms/signed`,
      }),
    );
    expect(saved).toMatchObject({ smsCode: 'signed', accessKey: 'sms-ak' });
    expect(saved).not.toHaveProperty('secretKey');
    // A new config sent with a blank key has none (and orders against the other, were a list sorted by the key).
    const blank = expectOk(await ctx.admin.post<Row>('/api/blade-resource/sms/submit', { category: 1, smsCode: 'unsigned', templateId: 'T3', secretKey: '', endpoint: `${gateway.origin}/sms/unsigned` }));
    expect(await ctx.server.app.platform.db.selectFrom('blade_sms').select('secretKey').where('id', '=', blank.id).executeTakeFirst()).toEqual({ secretKey: null });
    await expectKeyNeverAnswered(ctx.admin, sms, saved.id, 'sms-ak', keys);

    /** Sends through the config; the gateway must get the body signed with `secretKey`, or unsigned without one. */
    gateway.status = 200;
    const sentSignedWith = async (secretKey: string | undefined) => {
      expectOk(await ctx.admin.post('/api/blade-resource/sms/endpoint/send-message', undefined, { code: 'signed', phones: '13800138000' }));
      const delivery = gateway.received.at(-1)!;
      expect(delivery.url).toBe('/sms/signed');
      expect(JSON.parse(delivery.body)).toMatchObject({ templateId: 'SIGNED_01', accessKey: 'sms-ak' });
      expect(delivery.headers['x-sms-signature']).toBe(secretKey === undefined ? undefined : createHmac('sha256', secretKey).update(delivery.body).digest('hex'));
    };
    await sentSignedWith(keys[0]);

    // An edit without the key (left out, or blank as a form leaves it) keeps it.
    const edited = expectOk(await ctx.admin.post<Row>('/api/blade-resource/sms/submit', { id: saved.id, signName: 'Vigil' }));
    expect(edited).not.toHaveProperty('secretKey');
    await sentSignedWith(keys[0]);
    expectOk(await ctx.admin.post('/api/blade-resource/sms/update', { id: saved.id, templateId: 'SIGNED_01', secretKey: '' }));
    await sentSignedWith(keys[0]);

    // A new key replaces it; null clears it (the gateway's messages go unsigned).
    expectOk(await ctx.admin.post('/api/blade-resource/sms/submit', { id: saved.id, secretKey: keys[1] }));
    await sentSignedWith(keys[1]);
    await expectKeyNeverAnswered(ctx.admin, sms, saved.id, 'sms-ak', keys);
    expectOk(await ctx.admin.post('/api/blade-resource/sms/submit', { id: saved.id, secretKey: null }));
    await sentSignedWith(undefined);

    await expectKeyMaskedInLog(ctx.admin, '/blade-resource/sms/', 'sms-ak', keys);
    const usual = JSON.stringify(expectOk(await ctx.admin.get<PageData>('/api/blade-log/usual/list', { logId: 'sms', size: 100 })).records);
    expect(usual).toContain('SIGNED_01');
    for (const secret of keys) expect(usual).not.toContain(secret);
  });
});
