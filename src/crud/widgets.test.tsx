import { i18n } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { I18nProvider } from '@lingui/react';
import { useState } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { signedIn } from '../../tests/support/client';
import { startServer, type TestServer } from '../../tests/support/server';
import { activate } from '../app/i18n';
import { tokenCookies } from '../app/storage';
import type { Row } from './api';
import type { FieldView } from './types';
import { FieldCell, FieldInput } from './widgets';

/** Field widgets in happy-dom; dictionaries and uploads go to the real platform server. */
let server: TestServer;
let root: Root | undefined;
const seen: unknown[] = [];

function Harness({ field, initial }: { field: FieldView; initial?: unknown }) {
  const [value, setValue] = useState<unknown>(initial);
  return (
    <FieldInput id="w" field={field} value={value} onBlur={() => undefined}
      onChange={(next) => {
        seen.push(next);
        setValue(next);
      }} />
  );
}

function render(node: React.ReactNode) {
  root?.unmount();
  document.body.innerHTML = '<div id="host"></div>';
  root = createRoot(document.getElementById('host')!);
  root.render(<I18nProvider i18n={i18n}>{node}</I18nProvider>);
}

function setValue(input: HTMLInputElement, value: string) {
  Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')?.set?.call(input, value);
  input.dispatchEvent(new Event('input', { bubbles: true }));
}

/** The element once React has rendered it. */
async function element<T extends Element>(selector: string): Promise<T> {
  await vi.waitFor(() => expect(document.querySelector(selector)).not.toBeNull());
  return document.querySelector<T>(selector)!;
}

beforeAll(async () => {
  server = await startServer('sqlite');
  (window as unknown as { happyDOM: { setURL(url: string): void } }).happyDOM.setURL(`${server.url}/system/param`);
  const admin = await signedIn(server.url);
  tokenCookies.set(admin.token ?? '', admin.token ?? '');
  await activate('zh');
}, 60_000);

afterAll(async () => {
  root?.unmount();
  await server?.stop();
});

beforeEach(() => {
  seen.length = 0;
});

describe('field widgets', () => {
  it('offers a dictionary code as options and shows the value as a tag', async () => {
    render(<Harness field={{ name: 'isSealed', label: msg`封存`, widget: { type: 'select', dict: 'yes_no' } }} />);
    await vi.waitFor(() => expect([...document.querySelectorAll('#w option')].map((o) => o.textContent)).toEqual(['请选择', '否', '是']));
    const row: Row = { id: '1', isSealed: 1 };
    render(<FieldCell field={{ name: 'isSealed', label: msg`封存`, widget: { type: 'switch', dict: 'yes_no' } }} row={row} />);
    await vi.waitFor(() => expect(document.querySelector('.bp6-tag')?.textContent).toBe('是'));
  });

  it('selects several nodes of a tree and shows their titles', async () => {
    const source = async () => [{ id: '1', title: '工作台', children: [{ id: '11', title: '通知公告' }] }, { id: '2', title: '系统管理' }];
    render(<Harness field={{ name: 'menuId', label: msg`菜单列表`, widget: { type: 'tree', source, multiple: true } }} initial="2" />);
    await vi.waitFor(() => expect(document.querySelector('#w')?.textContent).toBe('系统管理'));
    (document.querySelector('#w') as HTMLButtonElement).click();
    await vi.waitFor(() => expect(document.querySelector('.vg-tree-select')).not.toBeNull());
    (document.querySelector('.vg-tree-select .bp6-tree-node-caret') as HTMLElement).click();
    await vi.waitFor(() => expect(document.querySelector('.vg-tree-select')?.textContent).toContain('通知公告'));
    const box = [...document.querySelectorAll<HTMLLabelElement>('.vg-tree-select label')].find((l) => l.textContent === '通知公告')!;
    box.querySelector('input')!.click();
    await vi.waitFor(() => expect(seen.at(-1)).toEqual(['2', '11']));
    expect(document.querySelector('#w')?.textContent).toBe('通知公告, 系统管理');
  });

  it('offers no choice of a heading node, only of its children', async () => {
    const source = async () => [{ id: 'p1', title: '大桥', group: true, children: [{ id: 'p1|d1:crack', title: '裂缝宽度' }] }];
    render(<Harness field={{ name: 'trends', label: msg`趋势曲线`, widget: { type: 'tree', source, multiple: true } }} />);
    (await element<HTMLButtonElement>('#w')).click();
    await vi.waitFor(() => expect(document.querySelector('.vg-tree-select')?.textContent).toContain('大桥'));
    expect(document.querySelectorAll('.vg-tree-select input[type=checkbox]')).toHaveLength(0);
    (document.querySelector('.vg-tree-select .bp6-tree-node-caret') as HTMLElement).click();
    await vi.waitFor(() => expect(document.querySelectorAll('.vg-tree-select input[type=checkbox]')).toHaveLength(1));
    document.querySelector<HTMLInputElement>('.vg-tree-select input[type=checkbox]')!.click();
    await vi.waitFor(() => expect(seen.at(-1)).toEqual(['p1|d1:crack']));
  });

  it('shows and takes datetimes as yyyy-MM-dd HH:mm:ss, typed or picked', async () => {
    render(<Harness field={{ name: 'releaseTime', label: msg`创建时间`, widget: { type: 'datetime' } }} initial="2026-01-02 03:04:05" />);
    const input = await element<HTMLInputElement>('#w');
    expect(input.type).toBe('text');
    expect(input.value).toBe('2026-01-02 03:04:05');
    expect(input.placeholder).toBe('yyyy-MM-dd HH:mm:ss');
    setValue(input, '2026-03-04 05:06:07');
    await vi.waitFor(() => expect(seen.at(-1)).toBe('2026-03-04 05:06:07'));
    // The browser's calendar (behind the button) answers yyyy-MM-ddTHH:mm.
    const picker = await element<HTMLInputElement>('.vg-date-picker input');
    expect(picker.type).toBe('datetime-local');
    setValue(picker, '2026-05-06T07:08');
    picker.dispatchEvent(new Event('change', { bubbles: true }));
    await vi.waitFor(() => expect(seen.at(-1)).toBe('2026-05-06 07:08:00'));
  });

  it('shows a date stored at midnight as yyyy-MM-dd and stores a whole typed date at midnight', async () => {
    const field: FieldView = { name: 'startDate', label: msg`开始日期`, widget: { type: 'date', midnight: true } };
    render(<Harness field={field} initial="2026-01-02 00:00:00" />);
    const input = await element<HTMLInputElement>('#w');
    expect(input.value).toBe('2026-01-02');
    setValue(input, '2026-03');
    await vi.waitFor(() => expect(seen.at(-1)).toBe('2026-03'));
    setValue(input, '2026-03-04');
    await vi.waitFor(() => expect(seen.at(-1)).toBe('2026-03-04 00:00:00'));
    render(<FieldCell field={field} row={{ id: '1', startDate: '2026-01-02 00:00:00' }} />);
    await vi.waitFor(() => expect(document.querySelector('#host')?.textContent).toBe('2026-01-02'));
  });

  it('sanitises rich text as it is typed', async () => {
    render(<Harness field={{ name: 'content', label: msg`备注`, widget: { type: 'richText' } }} initial="<p>hi</p>" />);
    const body = await element<HTMLElement>('#w');
    await vi.waitFor(() => expect(body.innerHTML).toBe('<p>hi</p>'));
    body.innerHTML = '<p onclick="x()">hi <b>there</b><script>alert(1)</script></p>';
    body.dispatchEvent(new Event('input', { bubbles: true }));
    await vi.waitFor(() => expect(seen.at(-1)).toBe('<p>hi <b>there</b></p>'));
  });

  it('uploads a file through put-file and keeps its link', async () => {
    render(<Harness field={{ name: 'avatar', label: msg`头像`, widget: { type: 'upload', accept: 'image' } }} />);
    const input = await element<HTMLInputElement>('input#w');
    const png = Uint8Array.from(atob('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg=='), (c) => c.charCodeAt(0));
    Object.defineProperty(input, 'files', { configurable: true, value: [new File([png], 'dot.png', { type: 'image/png' })] });
    input.dispatchEvent(new Event('change', { bubbles: true }));
    await vi.waitFor(() => expect(String(seen.at(-1))).toMatch(/^(https?:\/\/|\/).+/), { timeout: 5000 });
    const link = String(seen.at(-1));
    const fetched = await fetch(new URL(link, server.url));
    expect(fetched.status).toBe(200);
    await vi.waitFor(() => expect(document.querySelector<HTMLImageElement>('.vg-upload-preview')?.getAttribute('src')).toBe(link));
  });
});
