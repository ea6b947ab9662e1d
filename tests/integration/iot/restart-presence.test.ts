import type { Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PresenceChange } from '../../../server/ingest/types';
import { storeKinds } from '../../support/databases';
import { failWrites, takeLoggedErrors } from '../../support/failures';
import { brokerClients } from '../../support/mqtt';
import { startServer, type TestServer } from '../../support/server';
import { inTimeWait } from '../../support/tcp';
import { until } from '../../support/wait';
import { demoId } from '../monitoring/support';

/**
 * A restart of a process with the embedded broker (docs/mqtt.md "Presence"): the devices it disconnects as it closes
 * are not offline — they reconnect, and no console sees them flap. One that does not come back goes offline by silence.
 */
describe.each(await storeKinds())('presence across a restart of the embedded broker on %s', (store) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer(store, { offlineAfterMs: 2000 });
  });
  afterAll(() => server?.stop());
  const { connect } = brokerClients(() => server.app.broker?.port);
  const onlineOf = async (code: string) =>
    Number((await server.app.platform.db.selectFrom('wit_device').select('online').where('id', '=', demoId(`device:${code}`)).executeTakeFirstOrThrow()).online);
  const changes = () => {
    const seen: PresenceChange[] = [];
    server.app.platform.events.on('presence', (change) => seen.push(change));
    return seen;
  };

  it('keeps a reconnecting device online without a change, and takes one that stays away offline by its silence', async () => {
    await connect('QJ-CRACK-01');
    await connect('QJ-TH-01');
    await until(async () => (await onlineOf('QJ-CRACK-01')) === 1 && (await onlineOf('QJ-TH-01')) === 1, 5000, 'both online');
    const atClose = changes();
    server = await server.restart();
    expect(atClose).toEqual([]);
    const afterStart = changes();
    await connect('QJ-CRACK-01');
    // The sweep taking the absent one offline comes after the returning one's CONNECT was handled.
    await until(() => afterStart.find((change) => change.code === 'QJ-TH-01'), 15_000, 'the absent device offline');
    expect(afterStart).toEqual([expect.objectContaining({ code: 'QJ-TH-01', online: false, reason: 'timeout' })]);
    expect(await onlineOf('QJ-CRACK-01')).toBe(1);
  });

  it('resets the connections it hands over: none stays in TIME_WAIT on the port its devices come back to', async () => {
    const port = server.app.broker?.port as number;
    const connected = await Promise.all(['QJ-TH-01', 'QJ-TILT-01'].map((code) => connect(code)));
    const gone = connected.map((client) => new Promise<void>((resolve) => client.once('close', () => resolve())));
    const peers = connected.map((client) => (client.stream as Socket).localPort as number);
    server = await server.restart();
    await Promise.all(gone);
    // Closed the ordinary way, the broker's side of each would wait there a minute, and a device reconnecting on the
    // same address and port may have its SYN answered for the old connection (docs/mqtt.md "Restarts").
    expect(inTimeWait(port, peers)).toBe(0);
  });

  it('logs the hand-over it cannot write at close, and the restart goes on', async () => {
    await connect('QJ-TILT-02');
    const id = demoId('device:QJ-TILT-02');
    await until(async () => (await onlineOf('QJ-TILT-02')) === 1, 5000, 'online');
    const refuse = await failWrites(server, 'wit_device', `new.id = '${id}'`, 'update');
    server = await server.restart();
    await refuse(server);
    expect(await takeLoggedErrors(server, 'ingest')).toEqual(['presence at close: storage failure']);
  });
});
