import { REFERENCE_IDS } from '../../../resources/iot/examples';
import { PUSH_TYPE } from '../../../resources/iot/push';
import type { Db } from '../database';
import { insertRows } from './write';

/**
 * Seed step 0003_push_reference: the platform tenant's reference push target (docs/push.md): disabled and bound to nothing, so that the example
 * bodies of bindings and mappings name a target that exists on a fresh database. It never sends anything.
 */
export async function seedPush(db: Db): Promise<void> {
  await insertRows(db, 'wit_mqtt_param', [
    {
      id: REFERENCE_IDS.pushTarget,
      tenantId: '000000',
      name: '测试台推送(示例)',
      pushType: PUSH_TYPE.http,
      url: 'https://platform.example.com/api/vigil/data',
      batchSize: 100,
      flushInterval: 2000,
      timeout: 10000,
      enabled: 0,
      remark: '示例推送目标,未启用',
    },
  ]);
}
