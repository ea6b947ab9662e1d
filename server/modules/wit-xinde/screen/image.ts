import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { FastifyReply } from 'fastify';
import { attach } from '../../../../resources/resource/attach';
import { OSS_CATEGORY, oss } from '../../../../resources/resource/oss';
import type { CallContext } from '../../../db/repository';
import { badRequest, notFound } from '../../../http/envelope';
import { outboundGuard } from '../../../net/outbound';
import type { Platform } from '../../../platform';
import { FILE_ROUTE } from '../../blade-resource/files';
import { S3Storage } from '../../blade-resource/s3';
import { contentTypeOf, extensionOf, LocalStorage, OBJECT_NAME } from '../../blade-resource/storage';
import { WHOLE_TENANT } from '../common';
import { UnreadableSecret } from '../../../auth/secrets';

/**
 * A project's wall-screen image (docs/wall-screen.md "The image"): the link of an image the tenant uploaded
 * (blade_attach), never an arbitrary address — the server reads it on the screen's behalf, from its own disk or the
 * tenant's S3 bucket, so the screen needs nothing but its display link, and no address a tenant types is fetched.
 */

/** Images a browser shows inline; SVG is not one (it could run scripts), as for every download (storage.ts). */
const IMAGE_TYPES = new Set(['png', 'jpg', 'jpeg', 'gif', 'webp', 'bmp']);

export interface ImageAttachment {
  tenantId: string;
  domain: string | null;
  name: string;
}

/** The tenant's live attachment a screen image link names, if any. */
export async function findScreenImage(platform: Platform, ctx: CallContext, tenantId: string, link: string): Promise<ImageAttachment | undefined> {
  const qb = await platform.repo(attach).select(ctx, WHOLE_TENANT);
  return qb.select(['tenantId', 'domain', 'name']).where('link', '=', link).where('tenantId', '=', tenantId).executeTakeFirst();
}

/** A link a project's screen image may be set to: an image the tenant uploaded; else a 400. */
export async function assertScreenImage(platform: Platform, ctx: CallContext, tenantId: string, link: string): Promise<void> {
  const row = await findScreenImage(platform, ctx, tenantId, link);
  if (!row) throw badRequest('大屏底图应为本租户上传的附件');
  if (!IMAGE_TYPES.has(extensionOf(row.name))) throw badRequest('大屏底图应为 png、jpg、gif、webp 或 bmp 图片');
}

/** Sends the image's bytes: from the local upload directory or the tenant's S3 bucket that holds it. */
export async function sendScreenImage(platform: Platform, ctx: CallContext, image: ImageAttachment, reply: FastifyReply): Promise<FastifyReply> {
  const { type } = contentTypeOf(image.name);
  reply
    .type(type)
    .header('x-content-type-options', 'nosniff')
    .header('content-security-policy', "default-src 'none'")
    // The URL carries the image's version (server/modules/wit-xinde/screen/data.ts `imageUrl`).
    .header('cache-control', 'private, max-age=86400');
  if (String(image.domain ?? '').endsWith(`/api${FILE_ROUTE}`)) {
    const path = OBJECT_NAME.exec(image.name)?.[1] === image.tenantId ? new LocalStorage(platform.config.uploadDir).pathOf(image.name) : undefined;
    const info = path ? await stat(path).catch(() => undefined) : undefined;
    if (!path || !info?.isFile()) throw notFound('大屏底图不存在');
    return reply.header('content-length', info.size).send(createReadStream(path));
  }
  const ossRepo = platform.repo(oss);
  const stored = await (await ossRepo.select(ctx, WHOLE_TENANT)).selectAll().where('tenantId', '=', image.tenantId).where('category', '=', OSS_CATEGORY.s3).execute();
  // The S3 secret keys opened, to sign the read (server/auth/secrets.ts); one no key opens must be entered again.
  const configs = stored.map((row) => {
    try {
      return ossRepo.reveal(row);
    } catch (error) {
      if (error instanceof UnreadableSecret) throw badRequest(error.message);
      throw error;
    }
  });
  const guard = outboundGuard(platform.config.outbound);
  const store = configs
    .map((c) => new S3Storage({ endpoint: String(c.endpoint), accessKey: String(c.accessKey), secretKey: String(c.secretKey), bucketName: String(c.bucketName), region: c.region }, guard))
    .find((s3) => s3.domain === image.domain);
  if (!store) throw notFound('大屏底图不存在');
  const bytes = await store.get(image.name).catch((error: Error) => {
    throw badRequest(`大屏底图读取失败: ${error.message}`);
  });
  return reply.header('content-length', bytes.length).send(bytes);
}
