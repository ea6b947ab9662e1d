import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { DISPLAY_HEADER, type ScreenData } from '../../../resources/wire/screen';
import type { ApiClient } from '../../support/client';
import { expectOk, expectRefused, postParams, refused, type Row } from '../../support/envelope';
import { createStaff } from '../../support/staff';
import { onEveryStore } from '../../support/suite';
import { DEMO, X } from '../monitoring/support';
import { buildStructure, createLink, displayCall, type Structure } from './support';

const DATA = '/api/wit-xinde/screen/data';
const IMAGE = '/api/wit-xinde/screen/image';
/** The smallest PNG: one transparent pixel. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');

/** A bucket of an S3-compatible store on this machine: keeps what is PUT, answers GETs with it. */
async function startBucket(): Promise<{ origin: string; gets: string[]; close(): Promise<void> }> {
  const objects = new Map<string, Buffer>();
  const gets: string[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const path = req.url ?? '';
      if (req.method === 'PUT') {
        objects.set(path, Buffer.concat(chunks));
        res.writeHead(200).end();
        return;
      }
      gets.push(`${path} ${String(req.headers.authorization).startsWith('AWS4-HMAC-SHA256 Credential=screen-ak/') ? 'signed' : 'unsigned'}`);
      const object = objects.get(path);
      if (!object) res.writeHead(404).end('NoSuchKey');
      else res.writeHead(200, { 'content-type': 'application/octet-stream' }).end(object);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, gets, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

/**
 * The structure image and the points on it (docs/wall-screen.md "The image"): the layout call sets both at once, only
 * an image the tenant uploaded may be the image, and the wall screen reads it with nothing but its display link —
 * from the server's disk or from the tenant's S3 bucket.
 */
onEveryStore('the wall screen layout and its image', { signIn: ['demo', 'admin'] }, (ctx) => {
  let s: Structure;
  let link: Row & { secret: string };
  let bucket: Awaited<ReturnType<typeof startBucket>>;

  beforeAll(async () => {
    s = await buildStructure(ctx.demo, 'I');
    link = await createLink(ctx.demo, { projectIds: [s.projectA, s.projectB] });
    bucket = await startBucket();
  });

  afterAll(() => bucket?.close());

  async function upload(client: ApiClient, content: Buffer, filename: string): Promise<{ link: string; name: string }> {
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(content)]), filename);
    const response = await fetch(`${ctx.server.url}/api/blade-resource/oss/endpoint/put-file`, { method: 'POST', headers: client.headers(), body: form });
    const body = (await response.json()) as { data: { link: string; name: string } };
    expect(response.status, JSON.stringify(body)).toBe(200);
    return body.data;
  }

  const layout = (body: Record<string, unknown>, client = ctx.demo) => client.post(`${X}/screen/layout`, body);

  async function image(secret: string, url: string): Promise<{ status: number; type: string | null; bytes: Buffer }> {
    const response = await fetch(new URL(url, ctx.server.url), { headers: { [DISPLAY_HEADER]: secret } });
    return { status: response.status, type: response.headers.get('content-type'), bytes: Buffer.from(await response.arrayBuffer()) };
  }

  it('places the points on an uploaded image in one call; the screen reads both with its link alone', async () => {
    const file = await upload(ctx.demo, PNG, '桥梁立面.png');
    expectOk(await layout({ projectId: s.projectA, image: file.link, points: [{ id: s.points.M1, x: 0.25, y: 0.5 }, { id: s.points.M2, x: 1, y: 0 }] }));
    const data = expectOk(await displayCall<ScreenData>(ctx.server, link.secret, DATA));
    const [a, b] = data.projects;
    expect(a.points.map((p) => [p.id, p.x, p.y])).toEqual([
      [s.points.M1, 0.25, 0.5],
      [s.points.M2, 1, 0],
    ]);
    expect(a.image).toMatch(new RegExp(`^/api/wit-xinde/screen/image\\?projectId=${s.projectA}&v=[0-9a-f]{12}$`));
    expect(b.image).toBeNull();
    const shown = await image(link.secret, a.image as string);
    expect(shown).toMatchObject({ status: 200, type: 'image/png' });
    expect(shown.bytes.equals(PNG)).toBe(true);
    // Without the link, or with a link of other projects, there is no image.
    expect((await fetch(new URL(a.image as string, ctx.server.url))).status).toBe(401);
    const other = await createLink(ctx.demo, { projectIds: s.projectB });
    expect((await image(other.secret, a.image as string)).status).toBe(400);
    // The manager sees the same through the declared fields.
    expect(expectOk(await ctx.demo.get<Row>(`${X}/project/detail`, { id: s.projectA })).screenImage).toBe(file.link);
    expect(expectOk(await ctx.demo.get<Row>(`${X}/monitorpoint/detail`, { id: s.points.M1 })).screenX).toBe(0.25);

    // A new image gets a new address (nothing stale from a cache); removing it leaves the grid.
    const second = await upload(ctx.demo, Buffer.concat([PNG, Buffer.from([0])]), 'v2.png');
    expectOk(await layout({ projectId: s.projectA, image: second.link }));
    const changed = expectOk(await displayCall<ScreenData>(ctx.server, link.secret, DATA)).projects[0];
    expect(changed.image).not.toBe(a.image);
    expect(changed.points[0]).toMatchObject({ x: 0.25, y: 0.5 });
    expectOk(await layout({ projectId: s.projectA, image: null, points: [{ id: s.points.M2, x: null, y: null }] }));
    const cleared = expectOk(await displayCall<ScreenData>(ctx.server, link.secret, DATA)).projects[0];
    expect(cleared.image).toBeNull();
    expect(cleared.points[1]).toMatchObject({ x: null, y: null });
    expect((await image(link.secret, `${IMAGE}?projectId=${s.projectA}`)).status).toBe(404);
  });

  it('takes only an image the tenant uploaded, points of the project, and positions within the image', async () => {
    const text = await upload(ctx.demo, Buffer.from('not a picture'), 'notes.txt');
    const svg = await upload(ctx.demo, Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'), 'diagram.svg');
    const foreign = await upload(ctx.admin, PNG, 'platform.png');
    expectRefused(await layout({ projectId: s.projectA, image: text.link }), '大屏底图应为 png、jpg、gif、webp 或 bmp 图片');
    expectRefused(await layout({ projectId: s.projectA, image: svg.link }), '大屏底图应为 png、jpg、gif、webp 或 bmp 图片');
    expectRefused(await layout({ projectId: s.projectA, image: foreign.link }), '大屏底图应为本租户上传的附件');
    expectRefused(await layout({ projectId: s.projectA, image: 'http://169.254.169.254/latest/meta-data' }), '大屏底图应为本租户上传的附件');
    // The same rule when the project is saved with the field.
    expectRefused(await ctx.demo.post(`${X}/project/submit`, { id: s.projectA, screenImage: foreign.link }), '大屏底图应为本租户上传的附件');
    expectRefused(await ctx.demo.post(`${X}/monitorpoint/submit`, { id: s.points.M1, screenX: 1.5 }), '位置应在 0 到 1 之间');

    const points = (list: unknown) => layout({ projectId: s.projectA, points: list });
    expectRefused(await points([{ id: s.devices.B1.id, x: 0.1, y: 0.1 }]), '监测点不存在或不属于该项目');
    expectRefused(await points([{ id: s.points.M1, x: 1.1, y: 0.1 }]), '位置应在 0 到 1 之间');
    expectRefused(await points([{ id: s.points.M1, x: 0.1 }]), '位置应同时给出 x 和 y');
    expectRefused(await points([{ id: s.points.M1, x: 0.1, y: 0.1 }, { id: s.points.M1, x: 0.2, y: 0.2 }]), '监测点重复');
    expectRefused(await points({ id: s.points.M1 }), '应为监测点位置的列表');
    expectRefused(await points([{ id: 'x', x: 0, y: 0 }]), '必须是数字编号');
    expectRefused(await layout({ points: [] }), 'projectId');
    expectRefused(await layout({ projectId: '1', points: [] }), '项目不存在或无权操作');
    // Another tenant's user (not the platform administrator, who manages every tenant), a user limited to other projects.
    const stranger = await createStaff(ctx.server, '000000', 'layout_stranger');
    expectRefused(await layout({ projectId: s.projectA, points: [] }, stranger.client), '项目不存在或无权操作');
    const staff = await createStaff(ctx.server, DEMO, 'layout_staff');
    expectOk(await ctx.demo.post(`${X}/userproject/setUserProject`, { userId: staff.userId, projectIds: s.projectB }));
    expectRefused(await layout({ projectId: s.projectA, points: [] }, staff.client), '项目不存在或无权操作');
    // Nothing of a refused call was written.
    expect(expectOk(await ctx.demo.get<Row>(`${X}/monitorpoint/detail`, { id: s.points.M1 })).screenX).toBe(0.25);
  });

  it("reads an image kept in the tenant's S3 bucket on the screen's behalf, signed", async () => {
    const config = expectOk(
      await ctx.demo.post<Row>('/api/blade-resource/oss/submit', { category: 2, ossCode: 'screen-s3', endpoint: bucket.origin, accessKey: 'screen-ak', secretKey: 'screen-sk', bucketName: 'plans' }),
    );
    expectOk(await postParams(ctx.demo, '/api/blade-resource/oss/enable', { id: config.id }));
    const file = await upload(ctx.demo, PNG, 'plan.png');
    expect(file.link.startsWith(`${bucket.origin}/plans/`)).toBe(true);
    expectOk(await layout({ projectId: s.projectB, image: file.link }));
    const b = expectOk(await displayCall<ScreenData>(ctx.server, link.secret, DATA)).projects[1];
    const shown = await image(link.secret, b.image as string);
    expect(shown).toMatchObject({ status: 200, type: 'image/png' });
    expect(shown.bytes.equals(PNG)).toBe(true);
    expect(bucket.gets).toEqual([`/plans/${file.name} signed`]);
    refused(await displayCall(ctx.server, link.secret, IMAGE, { projectId: 'x' }), 400);
  });
});
