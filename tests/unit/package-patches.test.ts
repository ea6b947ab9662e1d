import { Aedes } from 'aedes';
import mqttPacket from 'mqtt-packet';
import { describe, expect, it } from 'vitest';

/**
 * The fixes patches/ applies to the packages at install (patches/README.md): without them a fleet's connections cost
 * twice the memory and a device back under its client id can be unlisted by its old connection, so an install that
 * skipped them is caught here rather than by a benchmark or in the field.
 */
describe('the package patches', () => {
  it("give mqtt-packet's parser a plain buffer list, no stream, and it still parses a packet split across reads", () => {
    const parser = mqttPacket.parser({ protocolVersion: 4 });
    expect('pipe' in (parser as unknown as { _list: object })._list).toBe(false);
    const packets: mqttPacket.Packet[] = [];
    parser.on('packet', (packet) => packets.push(packet));
    const publish = mqttPacket.generate({ cmd: 'publish', topic: 'vigil/100001/device/QJ-TILT-01/data', payload: '{"v":1}', qos: 1, messageId: 7, dup: false, retain: false });
    parser.parse(publish.subarray(0, 5));
    expect(packets).toEqual([]);
    parser.parse(publish.subarray(5));
    expect(packets).toMatchObject([{ cmd: 'publish', messageId: 7, topic: 'vigil/100001/device/QJ-TILT-01/data' }]);
  });

  it("let aedes' memory persistence tell that nothing is queued for a client", async () => {
    const broker = await Aedes.createBroker();
    try {
      const persistence = (broker as unknown as { persistence: { outgoingEmpty?: (client: { id: string }) => boolean } }).persistence;
      expect(persistence.outgoingEmpty?.({ id: 'QJ-TILT-01' })).toBe(true);
    } finally {
      await new Promise<void>((resolve) => broker.close(() => resolve()));
    }
  });

  it('let aedes unlist an ended client only if it is still the one listed under its id', async () => {
    const broker = await Aedes.createBroker();
    try {
      const listing = broker as unknown as { clients: Record<string, object>; connectedClients: number; unregisterClient(client: { id: string }): void };
      const [ended, back] = [{ id: 'QJ-TILT-01' }, { id: 'QJ-TILT-01' }];
      listing.clients[back.id] = back;
      listing.connectedClients = 2;
      listing.unregisterClient(ended);
      expect(listing.clients[back.id]).toBe(back);
      expect(listing.connectedClients).toBe(1);
      listing.unregisterClient(back);
      expect(listing.clients[back.id]).toBeUndefined();
    } finally {
      await new Promise<void>((resolve) => broker.close(() => resolve()));
    }
  });
});
