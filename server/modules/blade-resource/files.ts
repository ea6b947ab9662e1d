import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { MultipartFile } from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { attach } from '../../../resources/resource/attach';
import { OSS_CATEGORY, oss } from '../../../resources/resource/oss';
import type { Row } from '../../db/database';
import type { CallContext } from '../../db/repository';
import { contextOf, idsOf, paramsOf } from '../../http/context';
import { badRequest, notFound, ok } from '../../http/envelope';
import { outboundGuard } from '../../net/outbound';
import type { Platform } from '../../platform';
import { enabledConfig, withSecrets } from './configs';
import { S3Storage } from './s3';
import { contentTypeOf, displayName, extensionOf, LocalStorage, newObjectName, OBJECT_NAME } from './storage';
import { needs } from '../../auth/rights';
import { limited } from '../../http/limits';

/** Where locally stored files are served back; links are `<domain>/<object name>`. */
export const FILE_ROUTE = '/blade-resource/oss/endpoint/file';

const s3Of = (platform: Platform, config: Row) =>
  new S3Storage(
    {
      endpoint: String(config.endpoint),
      accessKey: String(config.accessKey),
      secretKey: String(config.secretKey),
      bucketName: String(config.bucketName),
      region: config.region as string | null,
    },
    outboundGuard(platform.config.outbound),
  );

/** Attachments are read only to clients, so the upload writes its row itself, through the repository. */
async function recordAttach(platform: Platform, ctx: CallContext, values: Row): Promise<string> {
  const [row] = await platform.repo(attach).insertMany(ctx, [values]);
  return String(row.id);
}

/**
 * Attachments and uploads (spec §7 "Files"). The tenant's enabled OSS config decides where a file goes: local disk
 * (also when none is enabled) or an S3-compatible bucket; either way the upload is recorded as an attachment.
 */
export function registerFiles(app: FastifyInstance, platform: Platform): void {
  const local = new LocalStorage(platform.config.uploadDir);
  const attachRepo = platform.repo(attach);
  const ossRepo = platform.repo(oss);

  /** Deletes an attachment's file wherever it was stored; files of a store whose config is gone are left. */
  async function removeFile(ctx: CallContext, row: Row): Promise<void> {
    const name = String(row.name);
    if (String(row.domain).endsWith(`/api${FILE_ROUTE}`)) {
      if (OBJECT_NAME.exec(name)?.[1] === row.tenantId) await local.remove(name);
      return;
    }
    const configs = await withSecrets(ossRepo, ctx, [(eb) => eb('tenantId', '=', row.tenantId as string), (eb) => eb('category', '=', OSS_CATEGORY.s3)]);
    const store = configs.map((config) => s3Of(platform, config)).find((s3) => s3.domain === row.domain);
    await store?.remove(name).catch((error: Error) => {
      throw badRequest(`文件删除失败: ${error.message}`);
    });
  }

  app.post('/blade-resource/attach/remove', needs('attach_delete'), async (request) => {
    const ctx = contextOf(request);
    const rows = await attachRepo.all(ctx, {}, [(eb) => eb('id', 'in', idsOf(paramsOf(request)))]);
    if (rows.length === 0) throw badRequest('数据不存在或无权操作');
    for (const row of rows) await removeFile(ctx, row);
    const ids = rows.map((r) => r.id);
    await attachRepo.removeWhere(ctx, [(eb) => eb('id', 'in', ids)]);
    return ok(true);
  });

  /** Stores the upload; returns its object name, size and the domain its link starts with. */
  async function store(request: FastifyRequest, ctx: CallContext, file: MultipartFile, name: string): Promise<{ size: number; domain: string }> {
    const config = await enabledConfig(ossRepo, ctx);
    if (config && Number(config.category) === OSS_CATEGORY.s3) {
      const body = await file.toBuffer();
      const s3 = s3Of(platform, config);
      await s3.put(name, body, contentTypeOf(name).type).catch((error: Error) => {
        throw badRequest(`文件上传失败: ${error.message}`);
      });
      return { size: body.length, domain: s3.domain };
    }
    const stored = await local.put(name, file.file);
    return { size: stored.size, domain: `${request.protocol}://${request.host}/api${FILE_ROUTE}` };
  }

  /** put-file (multipart field `file`); put-file-attach is the BladeX name of the same call. */
  const putFile = async (request: FastifyRequest) => {
    const ctx = contextOf(request);
    const file = await request.file();
    if (file?.fieldname !== 'file') throw badRequest('请选择要上传的文件');
    const originalName = displayName(file.filename);
    const extension = extensionOf(originalName);
    const name = newObjectName(ctx.principal.tenantId, extension);
    const { size, domain } = await store(request, ctx, file, name);
    const link = `${domain}/${name}`;
    const attachId = await recordAttach(platform, ctx, { link, domain, name, originalName, extension, attachSize: size });
    return ok({ link, domain, name, originalName, attachId });
  };
  app.post('/blade-resource/oss/endpoint/put-file', limited('upload', needs.self), putFile);
  app.post('/blade-resource/oss/endpoint/put-file-attach', limited('upload', needs('attach_upload')), putFile);

  /** Public by design: names carry 128 random bits, and <img> tags cannot send the token header. */
  app.get(`${FILE_ROUTE}/:tenant/:date/:file`, needs.public, async (request, reply) => {
    const { tenant, date, file } = request.params as Record<string, string>;
    const path = local.pathOf(`${tenant}/${date}/${file}`);
    const info = path ? await stat(path).catch(() => undefined) : undefined;
    if (!path || !info?.isFile()) throw notFound();
    const { type, inline } = contentTypeOf(file);
    reply
      .type(type)
      .header('content-length', info.size)
      .header('x-content-type-options', 'nosniff')
      .header('cache-control', 'private, max-age=86400')
      .header('content-disposition', `${inline ? 'inline' : 'attachment'}; filename="${file}"`);
    return reply.send(createReadStream(path));
  });
}
