import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_LINK_DAYS } from '../../../resources/iot/screen';
import { hashSecret, newSecret } from '../../auth/display';
import { nextId } from '../../ids';
import type { Platform } from '../../platform';
import { formatDateTime } from '../../time';
import { seedId } from './ids';

/** Where the demo's wall-screen secret is kept (beside the generated JWT secret), so every start can print its link. */
const SECRET_FILE = 'demo-wall-secret';
const DEMO = '100001';

/**
 * The demo's wall screen (docs/wall-screen.md): at the first demo start a display link of the demo bridge is made and
 * its secret kept in DATA_DIR; each start answers the link to print, or why it no longer opens. A link revoked or
 * expired stays so: an administrator makes a new one on 监测大屏.
 */
export async function demoWallLink(platform: Platform, origin: string): Promise<string> {
  const file = join(platform.config.dataDir, SECRET_FILE);
  if (existsSync(file)) {
    const secret = readFileSync(file, 'utf8').trim();
    const check = await platform.displays.verify(secret);
    return 'refused' in check ? `Demo wall screen: ${check.refused} (make a new link on 监测大屏)` : `Demo wall screen: ${origin}wall#${secret}`;
  }
  const projectId = seedId(`monitoring:${DEMO}:project:bridge`);
  const bridge = await platform.db.selectFrom('wit_project').select('id').where('id', '=', projectId).where('isDeleted', '=', 0).executeTakeFirst();
  if (!bridge) return 'Demo wall screen: the demo bridge is gone';
  const secret = newSecret();
  const now = new Date();
  const stamp = formatDateTime(now);
  await platform.db
    .insertInto('wit_display_link')
    .values({
      id: nextId(), tenantId: DEMO, createTime: stamp, updateTime: stamp, status: 1, isDeleted: 0, name: '钱塘江大桥值班大屏', projectIds: projectId, layout: 'structure', rotateSeconds: 30,
      expiresAt: formatDateTime(new Date(now.getTime() + DEFAULT_LINK_DAYS * 86_400_000)), revoked: 0, secretHash: hashSecret(secret), remark: '演示数据:npm start 生成',
    })
    .execute();
  platform.events.emit('changed', 'wit_display_link');
  writeFileSync(file, secret, { mode: 0o600 });
  return `Demo wall screen: ${origin}wall#${secret}`;
}
