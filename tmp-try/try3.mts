import { launchBrowser } from '/work/wt-work-console/tests/support/browser';
import { signIn } from '/work/wt-work-console/tests/e2e/support/console';
import { signedIn } from '/work/wt-work-console/tests/support/client';
const url = 'http://127.0.0.1:18091';
const b = await launchBrowser(url);
const page = b.page;
page.setDefaultTimeout(15000);
page.on('console', (m) => { if (m.type() === 'error') console.log('console:', m.text()); });
const shot = (n: string) => page.screenshot({ path: `/tmp/shots/${n}.png`, fullPage: true });
try {
  await signIn(page, '100001', 'admin', 'admin');
  await page.goto('/work/claim');
  await page.locator('.vg-work-row').first().waitFor();
  await shot('a1-claim');
  // Open the alarm task's handle page without claiming: through the todo list? build the path from the row.
  const admin = await signedIn(url, 'admin', 'admin', '100001');
  const rows = (await admin.get<{ records: Array<{ taskId: string; processInstanceId: string; businessId: string; category: string }> }>('/api/blade-flow/work/claim-list', {})).body.data.records;
  const alarmTask = rows.find((r) => r.category === 'flow_alarm')!;
  await page.goto(`/work/process/alarm/handle/${alarmTask.taskId}/${alarmTask.processInstanceId}/${alarmTask.businessId}`);
  await page.locator('.vg-task-claim').waitFor();
  await page.waitForTimeout(1500);
  await shot('a2-unclaimed');
  const operator = await signedIn(url, 'operator', 'Operator@2026', '100001');
  console.log('operator claim', JSON.stringify((await operator.post(`/api/blade-flow/work/claim-task?taskId=${alarmTask.taskId}`, {})).body));
  await page.fill('#field-comment', '我来处理');
  await page.locator('.vg-task-claim').click();
  await page.locator('.vg-task-claimed-by-other').waitFor();
  await shot('a3-claimed-by-other');
  await page.goto('/flow/follow');
  await page.locator('.vg-work-row').first().waitFor();
  await shot('a4-follow');
  await page.locator('.vg-action-delete').first().click();
  await page.locator('.vg-follow-delete').waitFor();
  await page.locator('.vg-follow-delete button.bp6-intent-danger').click();
  await page.waitForTimeout(300);
  await shot('a5-delete-empty');
  await page.fill('#field-deleteReason', '测试删除');
  await page.locator('.vg-follow-delete button.bp6-intent-danger').click();
  await page.getByText('删除成功').waitFor();
  await page.waitForTimeout(800);
  await shot('a6-deleted');
  // detail of the alarm instance
  await page.goto(`/work/process/alarm/detail/${alarmTask.processInstanceId}/${alarmTask.businessId}`);
  await page.locator('.vg-fact-title').waitFor();
  await page.waitForTimeout(1500);
  await shot('a7-alarm-detail');
} catch (e) { console.log('ERR', e); await shot('err'); }
console.log('errors', b.errors);
await b.close();
