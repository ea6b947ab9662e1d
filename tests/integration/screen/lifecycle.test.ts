import type { MqttClient } from 'mqtt';
import type { Socket } from 'socket.io-client';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { SCREEN_EVENTS, type ScreenData } from '../../../resources/wire/screen';
import { DISPLAY_MESSAGES } from '../../../server/auth/display';
import { seedId } from '../../../server/db/seed/ids';
import { formatDateTime } from '../../../server/time';
import { expectOk, postParams, refused, type Row } from '../../support/envelope';
import { onEveryStore } from '../../support/suite';
import { until } from '../../support/wait';
import { DEMO, X } from '../monitoring/support';
import { buildStructure, createLink, deviceClient, displayCall, publish, refusedHandshake, type ScreenSocket, screenSocket, type Structure } from './support';

const DATA = '/api/wit-xinde/screen/data';

/**
 * How a display link ends (docs/wall-screen.md "Revocation and expiry"): revoked, its secret regenerated, removed,
 * expired — by an edit or by the clock while a screen is open — or its tenant expired. Each time the HTTP calls are
 * refused at once and an open screen is sent `screen.revoked` and disconnected; the tests wait on those events. An
 * edit sends `screen.changed` and moves the screen to its new projects' rooms.
 */
onEveryStore('a display link ends, and its open screen with it', { signIn: ['demo', 'admin'] }, (ctx) => {
  const sockets: Socket[] = [];
  const clients: MqttClient[] = [];
  let s: Structure;

  beforeAll(async () => {
    s = await buildStructure(ctx.demo, 'L');
  });

  afterAll(async () => {
    for (const socket of sockets) socket.close();
    await Promise.all(clients.map((c) => c.endAsync(true)));
  });

  /** A link of project A with a screen open on it, reading its data. */
  async function openScreen(extra: Record<string, unknown> = {}): Promise<{ link: Row & { secret: string }; screen: ScreenSocket }> {
    const link = await createLink(ctx.demo, { projectIds: s.projectA, ...extra });
    const screen = await screenSocket(ctx.server, link.secret, sockets);
    expectOk(await displayCall(ctx.server, link.secret, DATA));
    return { link, screen };
  }

  /** The screen was told, then closed by the server; the secret is refused over HTTP and at the handshake. */
  async function ended(screen: ScreenSocket, told: Promise<unknown>, secret: string, message: string): Promise<void> {
    await told;
    expect(await screen.closed).toBe('io server disconnect');
    expect(screen.events.at(-1)).toBe(SCREEN_EVENTS.revoked);
    refused(await displayCall(ctx.server, secret, DATA), 401, message);
    expect(await refusedHandshake(ctx.server, { display: secret }, sockets)).toBe(message);
  }

  it('revoked: refused at once, its screen told and closed; it cannot be brought back', async () => {
    const { link, screen } = await openScreen();
    const told = screen.next(SCREEN_EVENTS.revoked);
    expectOk(await postParams(ctx.demo, `${X}/displaylink/revoke`, { ids: link.id }));
    await ended(screen, told, link.secret, DISPLAY_MESSAGES.revoked);
    refused(await postParams(ctx.demo, `${X}/displaylink/regenerate`, { id: link.id }), 400, '大屏链接已撤销');
    const row = expectOk(await ctx.demo.get<Row>(`${X}/displaylink/detail`, { id: link.id }));
    expect(row).toMatchObject({ revoked: 1, state: 'revoked', revokeUser: expect.any(String), revokeTime: expect.any(String) });
  });

  it('regenerated: the old secret opens nothing and its screen is closed; the new one opens the same screen', async () => {
    const { link, screen } = await openScreen();
    const told = screen.next(SCREEN_EVENTS.revoked);
    const fresh = expectOk(await postParams<{ id: string; secret: string }>(ctx.demo, `${X}/displaylink/regenerate`, { id: link.id }));
    expect(fresh.secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(fresh.secret).not.toBe(link.secret);
    await ended(screen, told, link.secret, DISPLAY_MESSAGES.unknown);
    expect(expectOk(await displayCall<ScreenData>(ctx.server, fresh.secret, DATA)).link.id).toBe(link.id);
  });

  it('removed: its screen is closed and its secret unknown', async () => {
    const { link, screen } = await openScreen();
    const told = screen.next(SCREEN_EVENTS.revoked);
    expectOk(await postParams(ctx.demo, `${X}/displaylink/remove`, { ids: link.id }));
    await ended(screen, told, link.secret, DISPLAY_MESSAGES.unknown);
  });

  it('expired by an edit setting its expiry in the past', async () => {
    const { link, screen } = await openScreen();
    const told = screen.next(SCREEN_EVENTS.revoked);
    expectOk(await ctx.demo.post(`${X}/displaylink/update`, { id: link.id, expiresAt: formatDateTime(new Date(Date.now() - 60_000)) }));
    await ended(screen, told, link.secret, DISPLAY_MESSAGES.expired);
    expect(expectOk(await ctx.demo.get<Row>(`${X}/displaylink/detail`, { id: link.id })).state).toBe('expired');
  });

  it('expired by the clock while its screen is open', async () => {
    // Seconds ahead (expiry is to the second): nothing touches the link after this, its screen's timer ends it.
    const { link, screen } = await openScreen({ expiresAt: formatDateTime(new Date(Date.now() + 3000)) });
    await ended(screen, screen.next(SCREEN_EVENTS.revoked), link.secret, DISPLAY_MESSAGES.expired);
  });

  it('edited: its screen is told to read again, and gets the live data of the projects it has now', async () => {
    const { link, screen } = await openScreen();
    const changed = screen.next(SCREEN_EVENTS.changed);
    expectOk(await ctx.demo.post(`${X}/displaylink/update`, { id: link.id, projectIds: [s.projectA, s.projectC], rotateSeconds: 60, layout: 'values' }));
    await changed;
    const data = expectOk(await displayCall<ScreenData>(ctx.server, link.secret, DATA));
    expect(data.link).toMatchObject({ rotateSeconds: 60, layout: 'values' });
    expect(data.projects.map((p) => p.id)).toEqual([s.projectA, s.projectC]);
    const c1 = await deviceClient(ctx.server, s.devices.C1.code, clients);
    const ts = Date.now();
    await publish(c1, DEMO, s.devices.C1.code, ts, { rainfall: 4 });
    expect(await until(() => screen.readings.flat().find((r) => r.ts === ts))).toEqual({ projectId: s.projectC, deviceId: s.devices.C1.id, ts, values: { rainfall: 4 } });
    // The name alone is shown too: renaming is a change.
    const renamed = screen.next(SCREEN_EVENTS.changed);
    expectOk(await ctx.demo.post(`${X}/displaylink/update`, { id: link.id, name: '二号大屏' }));
    await renamed;
    expect(screen.socket.connected).toBe(true);
  });

  /**
   * The tenant made unusable by `end`: the open screen is told and closed, the secret refused with the tenant's words;
   * once `restore` has run, the same secret opens the screen again.
   */
  async function endedWithTenant(end: () => Promise<void>, restore: () => Promise<void>): Promise<void> {
    const { link, screen } = await openScreen();
    const told = screen.next(SCREEN_EVENTS.revoked);
    await end();
    try {
      await ended(screen, told, link.secret, DISPLAY_MESSAGES.tenant);
    } finally {
      await restore();
    }
    expectOk(await displayCall(ctx.server, link.secret, DATA));
  }
  const tenant = seedId(`tenant:${DEMO}`);
  const tenantCall = async (path: string, params: Record<string, string>) =>
    void expectOk(await postParams(ctx.admin, `/api/blade-system/tenant/${path}`, { ids: tenant, ...params }));

  it('its tenant removed: refused and closed until the tenant is restored from the recycle bin', () =>
    endedWithTenant(
      () => tenantCall('remove', {}),
      () => tenantCall('recovery', {}),
    ));

  it('its tenant disabled: refused and closed until the tenant is enabled again', async () => {
    // No call of the console disables a tenant; the platform's operators may, in the database (status other than 1).
    const { db, events } = ctx.server.app.platform;
    const setStatus = async (status: number) => {
      await db.updateTable('blade_tenant').set({ status }).where('tenantId', '=', DEMO).execute();
      events.emit('changed', 'blade_tenant');
    };
    await endedWithTenant(
      () => setStatus(0),
      () => setStatus(1),
    );
  });

  it('its tenant expired: refused and closed until the tenant is renewed', () =>
    endedWithTenant(
      () => tenantCall('setting', { expireTime: formatDateTime(new Date(Date.now() - 60_000)) }),
      () => tenantCall('setting', { expireTime: '' }),
    ));
});
