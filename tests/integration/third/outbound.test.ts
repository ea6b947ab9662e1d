import { createServer, type AddressInfo, type Server } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PULL_STATE } from '../../../resources/iot/third';
import { type ApiClient, signedIn } from '../../support/client';
import { storeKinds } from '../../support/databases';
import { expectOk, expectRefused, type PageData, type Row } from '../../support/envelope';
import { GUARDED, startServer, type TestServer } from '../../support/server';
import { until } from '../../support/wait';
import { DEMO, X } from '../monitoring/support';

/**
 * The outbound guard on third-party platforms (docs/third-party.md "Outbound addresses"): a server without
 * OUTBOUND_ALLOW_PRIVATE refuses a platform on its own network when it is saved, tested (the live project list) and
 * pulled from, on demand or by the periodic puller, and records the refusal; nothing connects to the local port.
 */

const REFUSED = '指向内网或本机,已拒绝 (OUTBOUND_ALLOW_PRIVATE)';
/** A public-looking name that never resolves (RFC 6761): saved, then turned into a local address in the table. */
const NOWHERE = 'http://third.example.invalid';

describe.each(await storeKinds())('outbound guard on third-party platforms on %s', (store) => {
  let ours: TestServer;
  let demo: ApiClient;
  /** Where a platform would answer on this machine: counts every connection that reaches it. */
  let local: Server;
  let port = 0;
  let connections = 0;

  const connection = (name: string, extra: Record<string, unknown> = {}) => ({
    name,
    platformType: 'bladex',
    baseUrl: NOWHERE,
    thirdTenantId: '100001',
    username: 'vigil-sync',
    password: 'Staff@123',
    clientId: 'vigil-sync',
    clientSecret: 'Sync#Client-Secret-9',
    timeoutSeconds: 2,
    ...extra,
  });
  const post = <T = unknown>(path: string, body?: unknown) => demo.post<T>(`${X}/${path}`, body);
  const detail = async (id: string) => expectOk(await demo.get<Row>(`${X}/thirdmonitorparam/detail`, { id }));
  /** What DNS would do to a saved name: the stored address now leads to this machine. */
  const repoint = (id: string, baseUrl: string) => ours.app.platform.db.updateTable('wit_third_param').set({ baseUrl }).where('id', '=', id).execute();

  beforeAll(async () => {
    ours = await startServer(store, GUARDED);
    demo = await signedIn(ours.url, 'admin', 'admin', DEMO);
    local = createServer((socket) => {
      connections += 1;
      socket.destroy();
    });
    await new Promise<void>((resolve) => local.listen(0, '127.0.0.1', resolve));
    port = (local.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await ours?.stop();
    await new Promise((resolve) => local?.close(resolve));
  });

  it('refuses a platform on the platform’s own network when it is saved, and writes nothing', async () => {
    for (const baseUrl of [`http://127.0.0.1:${port}`, `http://localhost:${port}/`, 'http://169.254.169.254', `http://[::1]:${port}`, 'http://100.100.100.200', 'https://192.168.10.20/blade']) {
      expectRefused(await post('thirdmonitorparam/submit', connection('本机平台', { baseUrl })), REFUSED);
      expect(expectOk(await demo.get<PageData>(`${X}/thirdmonitorparam/list`, { name: '本机平台' })).total, baseUrl).toBe(0);
    }
    const saved = expectOk(await post<Row>('thirdmonitorparam/submit', connection('外部平台')));
    expectRefused(await post('thirdmonitorparam/submit', { id: saved.id, baseUrl: `http://localhost:${port}` }), `目标地址 localhost ${REFUSED}`);
    expect((await detail(String(saved.id))).baseUrl).toBe(NOWHERE);
    expectOk(await post('thirdmonitorparam/submit', { id: saved.id, remark: '仍可修改' }));
    expect(connections).toBe(0);
  });

  it('refuses the connection test and a pull now, records the refusal on the connection and in the error log', async () => {
    const param = expectOk(await post<Row>('thirdmonitorparam/submit', connection('改指本机')));
    await repoint(String(param.id), `http://localhost:${port}`);
    expectRefused(await demo.get(`${X}/thirdmonitorparam/getThirdProject`, { thirdParamId: String(param.id) }), `目标地址 localhost ${REFUSED}`);
    expectRefused(await post('thirdmonitorparam/getThirdData', { thirdParamId: param.id }), `目标地址 localhost ${REFUSED}`);
    expect(await detail(String(param.id))).toMatchObject({ lastPullState: PULL_STATE.failed, lastPullMessage: `目标地址 localhost ${REFUSED}` });
    await ours.app.platform.logs.flush();
    const errors = expectOk(await demo.get<PageData>('/api/blade-log/error/list', { exceptionName: 'ThirdPull:blocked' })).records;
    expect(errors[0]).toMatchObject({ tenantId: DEMO, message: `第三方平台「改指本机」拉取失败: 目标地址 localhost ${REFUSED}` });
    expect(connections).toBe(0);
  });

  it('refuses the periodic pull of a platform at a local address', async () => {
    const param = expectOk(await post<Row>('thirdmonitorparam/submit', connection('定时拉取', { intervalSeconds: 5, enabled: 1 })));
    await repoint(String(param.id), `http://127.0.0.1:${port}`);
    const recorded = await until(async () => {
      const row = await detail(String(param.id));
      return row.lastPullState === PULL_STATE.failed && row;
    }, 9000, 'the periodic pull refused');
    expect(recorded).toMatchObject({ lastPullMessage: `目标地址 127.0.0.1 ${REFUSED}`, running: 1 });
    expectOk(await post('thirdmonitorparam/submit', { id: param.id, enabled: 0 }));
    expect(connections).toBe(0);
  });
});
