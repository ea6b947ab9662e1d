import mqtt, { type IClientOptions, type MqttClient } from 'mqtt';
import { afterAll } from 'vitest';
import { DEMO_DEVICE_PASSWORD } from '../../server/db/seed/monitoring';

/**
 * MQTT clients of a test file on a test server's embedded broker, each ended when the file ends. Call it after the
 * hook that stops the server: after-all hooks run last registered first, so the clients go before the server.
 */
export function brokerClients(port: () => number | undefined) {
  const clients: MqttClient[] = [];
  afterAll(async () => {
    await Promise.all(clients.map((client) => client.endAsync(true)));
  });
  const optionsOf = (username: string, password: string, options: IClientOptions): IClientOptions => ({ username, password, clientId: username, protocolVersion: 4, reconnectPeriod: 0, ...options });
  return {
    clients,
    /** Connects as `username` (a demo device by default), its client id its username unless given. */
    async connect(username: string, password = DEMO_DEVICE_PASSWORD, options: IClientOptions = {}): Promise<MqttClient> {
      const client = await mqtt.connectAsync(`mqtt://127.0.0.1:${port()}`, optionsOf(username, password, options));
      clients.push(client);
      return client;
    },
    /** As `connect`, but returned at once: listeners attached now hear what follows the CONNACK in the same read. */
    open(username: string, password = DEMO_DEVICE_PASSWORD, options: IClientOptions = {}): MqttClient {
      const client = mqtt.connect(`mqtt://127.0.0.1:${port()}`, optionsOf(username, password, options));
      clients.push(client);
      return client;
    },
  };
}
