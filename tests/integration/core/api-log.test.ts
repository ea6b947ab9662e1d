import { request } from 'node:http';
import { expect, it } from 'vitest';
import { SECRET_MASK } from '../../../resources/define';
import { seedId } from '../../../server/db/seed/ids';
import { onEveryStore } from '../../support/suite';
import { until } from '../../support/wait';
import { DEMO } from '../monitoring/support';

/**
 * What the API log (blade_log_api, the log page's 接口日志; server/http/auth-hook.ts `installApiLog`) keeps of a call:
 * who made it, the route and how it was answered, its parameters and body with every secret masked (docs/security.md).
 */
onEveryStore('the API log', { signIn: ['demo'] }, (ctx) => {
  /** The log's rows of a path, which it keeps as the route sees it: without the optional /api prefix. */
  const logged = async (uri: string) => {
    await ctx.server.app.platform.logs.flush();
    return ctx.server.app.platform.db.selectFrom('blade_log_api').selectAll().where('requestUri', '=', uri.replace(/^\/api/, '')).execute();
  };
  /** The rows of a path once there are any: a call is logged as its answer has gone, which the caller may see first. */
  const loggedOnce = (uri: string) =>
    until(async () => {
      const rows = await logged(uri);
      return rows.length > 0 && rows;
    }, 5_000, `${uri} logged`);

  it('keeps who called which route, its answer, and its parameters and body with every secret masked', async () => {
    const route = '/blade-system/param/submit';
    const uri = `/api${route}`;
    // The SMTP password param (its key typed with spaces), a field named as a secret, and one the resources declare secret.
    const body = { paramName: 'SMTP 密码', paramKey: ' alarm.smtp.password ', paramValue: 'smtp-secret', remark: '值班邮箱', password: 'p', headers: 'X-Key: k' };
    const reply = await ctx.demo.request('POST', uri, { query: { probe: 'api-log' }, json: body });

    const [row, ...more] = await loggedOnce(uri);
    expect(more).toEqual([]);
    expect(row).toMatchObject({ tenantId: DEMO, createUser: seedId(`user:${DEMO}:admin`), createBy: 'admin', type: String(reply.status), title: route, methodName: route, method: 'POST' });
    expect(JSON.parse(String(row.params))).toEqual({
      probe: 'api-log',
      body: { paramName: 'SMTP 密码', paramKey: ' alarm.smtp.password ', paramValue: SECRET_MASK, remark: '值班邮箱', password: SECRET_MASK, headers: SECRET_MASK },
    });

    // Another param's value is no secret: kept as sent.
    await ctx.demo.request('POST', uri, { query: { probe: 'plain' }, json: { paramName: '告警声音', paramKey: 'alarm.sound', paramValue: 'on' } });
    const plain = await until(async () => (await logged(uri)).find((r) => String(r.params).includes('plain')), 5_000, 'the second call logged');
    expect(JSON.parse(String(plain.params))).toEqual({ probe: 'plain', body: { paramName: '告警声音', paramKey: 'alarm.sound', paramValue: 'on' } });
  });

  it('cuts the parameters at 4,000 characters', async () => {
    const uri = '/api/blade-user/info';
    await ctx.demo.request('GET', uri, { query: { probe: 'z'.repeat(5_000) } });
    const [row] = await loggedOnce(uri);
    expect(String(row.params)).toBe(JSON.stringify({ probe: 'z'.repeat(5_000) }).slice(0, 4_000));
  });

  it('logs a call without a token or an agent under the platform tenant and nobody', async () => {
    const uri = '/api/blade-system/tenant/info';
    // node:http sends no User-Agent unless told to (fetch would send its own).
    const status = await new Promise<number>((resolve, reject) => {
      request(new URL(uri, ctx.server.url), (response) => {
        response.resume();
        resolve(response.statusCode ?? 0);
      })
        .on('error', reject)
        .end();
    });
    expect(status).toBe(200);
    const [row, ...more] = await loggedOnce(uri);
    expect(more).toEqual([]);
    expect(row).toMatchObject({ tenantId: '000000', createUser: null, createBy: null, userAgent: null, type: '200', params: '{}' });
  });

  it('keeps no call outside the API', async () => {
    expect((await fetch(new URL('/ready', ctx.server.url))).status).toBe(200);
    // A call after it, once logged, tells that the log has seen the first too.
    expect((await fetch(new URL('/api/blade-system/tenant/info?probe=after-ready', ctx.server.url))).status).toBe(200);
    await until(async () => (await logged('/api/blade-system/tenant/info')).some((r) => String(r.params).includes('after-ready')), 5_000, 'the call after');
    expect(await logged('/ready')).toEqual([]);
  });
});
