import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient, signedIn } from '../support/client';
import { type ConsoleUnderTest, openConsole } from './support/console';

const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');

describe('profile page', () => {
  let c: ConsoleUnderTest;
  beforeAll(async () => {
    c = await openConsole();
    await c.login();
    await c.page.goto('/info/index');
    await c.page.locator('#realName').waitFor();
  });
  afterAll(() => c?.stop());

  it('checks the phone: empty, length, pattern', async () => {
    const phone = c.page.locator('#phone');
    await phone.fill('');
    await phone.blur();
    await c.page.getByText('手机号码不能为空').waitFor();
    await phone.fill('1380013800');
    await phone.blur();
    await c.page.getByText('手机号码长度不为11位').waitFor();
    await phone.fill('12800138000');
    await phone.blur();
    await c.page.getByText('手机号码格式不正确').waitFor();
  });

  it('refuses avatars that are not jpg/png or larger than 500kb, uploads a png', async () => {
    const input = c.page.locator('input[name=avatar]');
    await input.setInputFiles({ name: 'a.gif', mimeType: 'image/gif', buffer: Buffer.from('GIF89a') });
    await c.page.getByText('上传头像图片只能是 JPG/PNG 格式!').waitFor();
    await input.setInputFiles({ name: 'big.png', mimeType: 'image/png', buffer: Buffer.alloc(501 * 1024, 1) });
    await c.page.getByText('上传头像图片大小不能超过 500KB!').waitFor();
    await input.setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: PNG });
    await expect.poll(() => c.page.locator('img.vg-avatar-preview').getAttribute('src')).not.toBe('/img/bg/logo.jpg');
  });

  it('saves personal info', async () => {
    await c.page.locator('#realName').fill('E2E 管理员');
    await c.page.locator('#phone').fill('13800138000');
    await c.page.locator('#email').fill('admin@example.com');
    await c.page.getByRole('button', { name: '保存' }).click();
    await c.page.getByText('修改信息成功!').waitFor();
    const admin = await signedIn(c.server.url);
    const info = await admin.get<{ realName: string; phone: string; avatar: string }>('/api/blade-user/info');
    expect(info.body.data).toMatchObject({ realName: 'E2E 管理员', phone: '13800138000' });
    expect(info.body.data.avatar).not.toBe('');
  });

  it('changes the password under the policy', async () => {
    await c.page.getByRole('tab', { name: '修改密码' }).click();
    await c.page.locator('#oldPassword').fill('admin');
    await c.page.locator('#newPassword').fill('abcdef');
    await c.page.locator('#newPassword1').fill('abcdef');
    await c.page.getByRole('button', { name: '保存' }).click();
    await c.page.getByText('密码长度为6-30位,且须包含数字、字母和特殊字符').waitFor();
    await c.page.locator('#newPassword').fill('Vigil123!');
    await c.page.getByRole('button', { name: '保存' }).click();
    await c.page.getByText('两次密码输入不一致').waitFor();
    await c.page.locator('#newPassword1').fill('Vigil123!');
    await c.page.getByRole('button', { name: '保存' }).click();
    await c.page.getByText('修改密码成功!').waitFor();
    const relogin = await new ApiClient(c.server.url).login('admin', 'Vigil123!');
    expect(relogin.access_token).toBeTruthy();
  });
});
