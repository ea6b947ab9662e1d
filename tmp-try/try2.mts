import { launchBrowser } from '/work/wt-work-console/tests/support/browser';
import { signIn } from '/work/wt-work-console/tests/e2e/support/console';
const url = 'http://127.0.0.1:18091';
const b = await launchBrowser(url);
const page = b.page;
page.setDefaultTimeout(15000);
page.on('console', (m) => { if (m.type() === 'error') console.log('console:', m.text()); });
const shot = (n: string) => page.screenshot({ path: `/tmp/shots/${n}.png`, fullPage: true });
try {
  const step = process.argv[2] ?? 'all';
  if (step === 'all' || step === 'z') {
    await signIn(page, '100001', 'zhangsan', 'Vigil@2026');
    await page.goto('/work/start');
    await page.locator('.vg-action-start').first().click();
    await page.locator('#field-startTime').waitFor();
    await page.fill('#field-startTime', '2026-12-01 09:00:00');
    await page.fill('#field-endTime', '2026-12-02 18:00:00');
    await page.fill('#field-reason', '家中有事 ' + Date.now());
    await page.locator('.vg-leave-submit').click();
    await page.waitForURL('**/work/send');
    await page.locator('.vg-action-detail').first().waitFor();
    await shot('3-send');
    await page.locator('.vg-action-detail').first().click();
    await page.waitForURL('**/work/process/leave/detail/**');
    await page.locator('.vg-timeline-step').first().waitFor();
    await page.waitForTimeout(2000);
    await shot('4-detail');
  }
  if (step === 'all' || step === 'l') {
    await page.context().clearCookies();
    await signIn(page, '100001', 'lisi', 'Vigil@2026');
    await page.goto('/work/claim');
    await page.locator('.vg-work-row').first().waitFor();
    await shot('5-claim');
    await page.locator('.vg-action-claim').first().click();
    await page.waitForURL('**/work/process/leave/handle/**');
    await page.locator('.vg-task-approve').waitFor();
    await page.waitForTimeout(1500);
    await shot('6-handle');
    await page.fill('#field-comment', '同意,注意安全');
    await page.locator('.vg-task-approve').click();
    await page.locator('.vg-task-finished').waitFor();
    await shot('7-finished');
    await page.waitForURL('**/work/todo');
    await page.waitForTimeout(800);
    await shot('8-todo');
    await page.goto('/work/done');
    await page.locator('.vg-work-row').first().waitFor();
    await shot('9-done');
  }
} catch (e) { console.log('ERR', e); await shot('err'); }
console.log('errors', b.errors);
await b.close();
