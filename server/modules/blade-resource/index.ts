import type { FastifyInstance, FastifyRequest } from 'fastify';
import { DISABLED, OSS_CATEGORY, oss } from '../../../resources/resource/oss';
import { SMS_CATEGORY, sms } from '../../../resources/resource/sms';
import type { Row } from '../../db/database';
import { contextOf, paramsOf, requiredText, text } from '../../http/context';
import { registerCrud } from '../../http/crud';
import { badRequest, invalidParam, ok } from '../../http/envelope';
import { refuseLocalUrl } from '../../net/check';
import { outboundGuard } from '../../net/outbound';
import type { Platform } from '../../platform';
import { enableOne, enabledConfig, keepSecret, withSecrets } from './configs';
import { registerFiles } from './files';
import { phoneProblem, providerOf } from './sms';
import { needs } from '../../auth/rights';
import { limited } from '../../http/limits';

const MAX_PHONES = 200;

/**
 * Whether a save writes a config's address or its kind: only then is the endpoint judged by the outbound guard
 * (docs/push.md "Outbound addresses"); every request is judged again when it connects.
 */
const addressWritten = (values: Row) => values.endpoint !== undefined || values.category !== undefined;

function registerOss(app: FastifyInstance, platform: Platform): void {
  const repo = platform.repo(oss);
  registerCrud(app, platform, oss, {
    async beforeSave(ctx, given, existing) {
      const values = keepSecret(given, existing);
      const merged = { ...existing, ...values };
      if (Number(merged.category) === OSS_CATEGORY.s3) {
        // `existing` is the row as answered, without its key: an edit that keeps the key is checked against the stored one.
        if (existing && values.secretKey === undefined) merged.secretKey = (await withSecrets(repo, ctx, [(eb) => eb('id', '=', existing.id)], 1))[0]?.secretKey;
        for (const [field, message] of [['endpoint', '请输入资源地址'], ['accessKey', '请输入accessKey'], ['secretKey', '请输入secretKey'], ['bucketName', '请输入空间名']] as const) {
          if (!String(merged[field] ?? '').trim()) throw invalidParam(`${field}: ${message}`);
        }
        if (!/^https?:\/\//.test(String(merged.endpoint))) throw invalidParam('endpoint: 地址必须以 http 或 https 开头');
        if (addressWritten(values)) await refuseLocalUrl(platform, merged.endpoint);
      }
      // Enabling goes through `enable`, which keeps one enabled config per tenant.
      const { status: _ignored, ...rest } = values;
      return existing ? rest : { ...rest, status: DISABLED };
    },
  });
  app.post('/blade-resource/oss/enable', needs('oss_enable'), async (request) => {
    await enableOne(platform, repo, contextOf(request), requiredText(paramsOf(request), 'id'));
    return ok(true);
  });
}

function registerSms(app: FastifyInstance, platform: Platform): void {
  const repo = platform.repo(sms);
  registerCrud(app, platform, sms, {
    async beforeSave(_ctx, given, existing) {
      const values = keepSecret(given, existing);
      const merged = { ...existing, ...values };
      if (Number(merged.category) === SMS_CATEGORY.http) {
        if (!String(merged.endpoint ?? '').trim()) throw invalidParam('endpoint: 请输入短信网关地址');
        if (addressWritten(values)) await refuseLocalUrl(platform, merged.endpoint);
      }
      const { status: _ignored, ...rest } = values;
      return existing ? rest : { ...rest, status: DISABLED };
    },
  });
  app.post('/blade-resource/sms/enable', needs('sms_enable'), async (request) => {
    await enableOne(platform, repo, contextOf(request), requiredText(paramsOf(request), 'id'));
    return ok(true);
  });

  /**
   * Sends through the config named by `code` (its smsCode), else through the tenant's enabled one. `phones` are
   * comma-joined, `params` a JSON object of template values. Every attempt goes to the usual log.
   */
  app.post('/blade-resource/sms/endpoint/send-message', limited('connectionTest', needs('sms_send')), async (request) => {
    const ctx = contextOf(request);
    const params = { ...paramsOf(request), ...jsonBody(request) };
    const phones = [...new Set(requiredText(params, 'phones').split(',').map((p) => p.trim()).filter(Boolean))];
    if (phones.length > MAX_PHONES) throw invalidParam(`phones: 一次最多发送${MAX_PHONES}个号码`);
    for (const phone of phones) {
      const problem = phoneProblem(phone);
      if (problem) throw invalidParam(`phones: ${problem}`);
    }
    const templateParams = templateParamsOf(params.params);
    const code = text(params, 'code');
    const config = code
      ? (await withSecrets(repo, ctx, [(eb) => eb('tenantId', '=', ctx.principal.tenantId), (eb) => eb('smsCode', '=', code)], 1))[0]
      : await enabledConfig(repo, ctx);
    if (!config) throw badRequest(code ? '短信配置不存在' : '未启用短信配置');
    const entry = { smsCode: config.smsCode, templateId: config.templateId, phones, params: templateParams };
    const log = (level: string, detail: string) =>
      platform.logs.write('blade_log_usual', {
        tenantId: ctx.principal.tenantId,
        createUser: ctx.principal.userId,
        createBy: ctx.principal.account,
        method: request.method,
        requestUri: request.url.split('?')[0],
        remoteIp: request.ip,
        logLevel: level,
        logId: 'sms',
        logData: JSON.stringify({ ...entry, detail }).slice(0, 20_000),
      });
    try {
      const result = await providerOf(config.category, outboundGuard(platform.config.outbound)).send(config, { phones, params: templateParams });
      log('INFO', result.detail);
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      log('ERROR', reason);
      throw badRequest(`短信发送失败: ${reason}`);
    }
    return ok(true);
  });
}

function jsonBody(request: FastifyRequest): Row {
  const body = request.body;
  return request.headers['content-type']?.includes('json') && body && typeof body === 'object' && !Array.isArray(body) ? (body as Row) : {};
}

function templateParamsOf(value: unknown): Record<string, unknown> {
  if (value === undefined || value === null || value === '') return {};
  if (typeof value === 'object' && !Array.isArray(value)) return value as Record<string, unknown>;
  try {
    const parsed: unknown = JSON.parse(String(value));
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) return parsed as Record<string, unknown>;
  } catch {
    // reported below
  }
  throw invalidParam('params: 参数应为 JSON 对象');
}

/** blade-resource: object storage and SMS configs, attachments, uploads and the files behind their links. */
export function registerResource(app: FastifyInstance, platform: Platform): void {
  registerOss(app, platform);
  registerSms(app, platform);
  registerFiles(app, platform);
}
