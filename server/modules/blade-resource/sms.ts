import { createHmac } from 'node:crypto';
import { SMS_CATEGORY } from '../../../resources/resource/sms';
import type { Row } from '../../db/database';
import type { OutboundGuard } from '../../net/outbound';

/** One message to several phones, filled from the config's template with params. */
export interface SmsMessage {
  phones: string[];
  params: Record<string, unknown>;
}

export interface SmsResult {
  /** What the provider answered, kept in the usual log. */
  detail: string;
}

/** A way of delivering SMS; the config row (blade_sms) carries its address, keys, template and signature. */
export interface SmsProvider {
  send(config: Row, message: SmsMessage): Promise<SmsResult>;
}

const GATEWAY_TIMEOUT_MS = 10_000;

/**
 * Posts the message as JSON to the config's endpoint: {templateId, signName, phones, params, accessKey}. With a
 * secret key the body is signed (X-Sms-Signature: hex HMAC-SHA256 of the body) so the gateway can trust it.
 * Any 2xx answer is a success. The endpoint is a tenant's: the post goes through the outbound guard.
 */
export class HttpGateway implements SmsProvider {
  constructor(private readonly guard: OutboundGuard) {}

  async send(config: Row, message: SmsMessage): Promise<SmsResult> {
    const endpoint = String(config.endpoint ?? '');
    if (!/^https?:\/\//.test(endpoint)) throw new Error('短信网关地址未配置');
    const body = JSON.stringify({
      templateId: config.templateId ?? null,
      signName: config.signName ?? null,
      accessKey: config.accessKey ?? null,
      regionId: config.regionId ?? null,
      phones: message.phones,
      params: message.params,
    });
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (config.secretKey) headers['x-sms-signature'] = createHmac('sha256', String(config.secretKey)).update(body).digest('hex');
    const response = await this.guard.fetch(endpoint, { method: 'POST', headers, body, signal: AbortSignal.timeout(GATEWAY_TIMEOUT_MS) });
    const answer = (await response.text()).slice(0, 2000);
    if (!response.ok) throw new Error(`短信网关返回 ${response.status}: ${answer.slice(0, 200)}`);
    return { detail: answer };
  }
}

/** Delivers nowhere: the send is only recorded (development and demo tenants). */
export const logOnly: SmsProvider = {
  async send() {
    return { detail: '仅记录日志' };
  },
};

export function providerOf(category: unknown, guard: OutboundGuard): SmsProvider {
  return Number(category) === SMS_CATEGORY.http ? new HttpGateway(guard) : logOnly;
}

/** Spec §5 "Phone": 11 digits, 1 then 3-9; the first broken rule's message. */
export function phoneProblem(phone: string): string | undefined {
  if (!phone) return '手机号码不能为空';
  if (phone.length !== 11) return '手机号码长度不为11位';
  if (!/^1[3-9]\d{9}$/.test(phone)) return '手机号码格式不正确';
  return undefined;
}
