import type { Transporter } from 'nodemailer';
import type { Channel } from '../../resources/iot/alarm';
import { ALARM_EVENT, type AlarmMessage, type LiveAlarm } from '../../resources/wire/alarms';
import { ENABLED } from '../../resources/resource/oss';
import { sms } from '../../resources/resource/sms';
import { SMTP_PASSWORD_PARAM } from '../../resources/system/param';
import { UnreadableSecret } from '../auth/secrets';
import type { Row } from '../db/database';
import { publishNotice } from '../modules/blade-desk';
import { providerOf } from '../modules/blade-resource/sms';
import { refuseLocalHost } from '../net/check';
import { type OutboundGuard, outboundGuard, refusalOf } from '../net/outbound';
import type { Platform } from '../platform';
import type { Realtime } from '../realtime';

/** The four ways an alarm reaches a person (docs/alarms.md "Channels"). */

/** Someone told about alarms: an alarm recipient row, a platform user, or both merged (same user). */
export interface Person {
  key: string;
  recipientId: string | null;
  userId: string | null;
  name: string;
  email?: string;
  phone?: string;
  webhookUrl?: string;
  /** Channels the person accepts; undefined: every channel they have an address for. */
  accepts?: ReadonlySet<string>;
}

export interface Sent {
  target: string;
  detail: string;
}

/** A failure that retrying cannot fix (no address, no configuration): not retried. */
export class PermanentFailure extends Error {}

/** Tenant SMTP settings, kept as params (blade_param) so each tenant configures them on the param page. */
export const SMTP_PARAMS = {
  host: 'alarm.smtp.host',
  port: 'alarm.smtp.port',
  secure: 'alarm.smtp.secure',
  user: 'alarm.smtp.user',
  password: SMTP_PASSWORD_PARAM,
  from: 'alarm.smtp.from',
} as const;

export const alarmHref = (alarmId: string) => `/xinde/alarm?id=${alarmId}`;

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);

export class Channels {
  /** How long a webhook or an SMTP server may take to answer (each SMTP stage; twice that for the socket). */
  timeoutMs = 10_000;
  private readonly transports = new Map<string, Transporter>();
  /** Webhooks, SMTP servers and SMS gateways are tenants' addresses (docs/push.md "Outbound addresses"). */
  private readonly guard: OutboundGuard;

  constructor(
    private readonly platform: Platform,
    private readonly realtime: Realtime,
  ) {
    this.guard = outboundGuard(platform.config.outbound);
  }

  /**
   * A refusal of the outbound guard is not retried: the address will not change by itself; nor is a stored secret no
   * configured key opens (it has to be entered again).
   */
  async send(channel: Channel, person: Person, message: AlarmMessage): Promise<Sent> {
    try {
      return await this.sendOn(channel, person, message);
    } catch (error) {
      if (error instanceof UnreadableSecret) throw new PermanentFailure(error.message);
      const refusal = refusalOf(error);
      throw refusal ? new PermanentFailure(refusal.message) : error;
    }
  }

  private sendOn(channel: Channel, person: Person, message: AlarmMessage): Promise<Sent> {
    if (channel === 'notice') return this.inApp(person, message);
    if (channel === 'email') return this.email(person, message);
    if (channel === 'sms') return this.sms(person, message);
    return this.webhook(person, message);
  }

  /** A desk notice to the user, and the socket event that updates their bell at once. */
  private async inApp(person: Person, message: AlarmMessage): Promise<Sent> {
    if (!person.userId) throw new PermanentFailure('接收人未关联平台用户');
    const noticeId = await publishNotice(this.platform, {
      tenantId: message.tenantId,
      title: message.title,
      category: 8,
      content: `<p>${escapeHtml(message.content)}</p><p><a href="#${message.href}">查看告警</a></p>`,
      userIds: [person.userId],
    });
    const live: LiveAlarm = { ...message, noticeId };
    this.realtime.toUser(person.userId, ALARM_EVENT, live);
    return { target: `user:${person.userId}`, detail: `通知 ${noticeId}` };
  }

  private async email(person: Person, message: AlarmMessage): Promise<Sent> {
    if (!person.email) throw new PermanentFailure('接收人未设置邮箱');
    const settings = await smtpSettings(this.platform, message.tenantId);
    if (!settings.host) throw new PermanentFailure(`未配置邮件服务器(参数 ${SMTP_PARAMS.host})`);
    const info = await (await this.transport(settings)).sendMail({
      from: settings.from || settings.user || `vigil@${settings.host}`,
      to: person.email,
      subject: message.title,
      text: `${message.content}\n\n时间: ${message.time}\n链接: ${message.href}`,
    });
    return { target: person.email, detail: String(info.response ?? info.messageId ?? '') };
  }

  private async sms(person: Person, message: AlarmMessage): Promise<Sent> {
    if (!person.phone) throw new PermanentFailure('接收人未设置手机号码');
    const config = await this.platform.db
      .selectFrom('blade_sms')
      .selectAll()
      .where('tenantId', '=', message.tenantId)
      .where('status', '=', ENABLED)
      .where('isDeleted', '=', 0)
      .executeTakeFirst();
    if (!config) throw new PermanentFailure('未启用短信配置');
    const params = { title: message.title, content: message.content, level: message.levelName, device: message.deviceCode, value: message.value, time: message.time };
    // The secret key opened to sign the message (server/auth/secrets.ts).
    const result = await providerOf(config.category, this.guard).send(this.platform.secrets.reveal(sms, config), { phones: [person.phone], params });
    return { target: person.phone, detail: result.detail };
  }

  private async webhook(person: Person, message: AlarmMessage): Promise<Sent> {
    if (!person.webhookUrl) throw new PermanentFailure('接收人未设置 Webhook 地址');
    const response = await this.guard.fetch(person.webhookUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ event: 'alarm', alarm: message }),
      signal: AbortSignal.timeout(this.timeoutMs),
    });
    const answer = (await response.text()).slice(0, 500);
    if (!response.ok) throw new Error(`Webhook 返回 ${response.status}: ${answer.slice(0, 200)}`);
    return { target: person.webhookUrl, detail: `${response.status} ${answer}` };
  }

  /** nodemailer is loaded with the first mail, not at start. */
  private async transport(settings: SmtpSettings): Promise<Transporter> {
    const key = JSON.stringify(settings);
    const { default: nodemailer } = await import('nodemailer');
    let transport = this.transports.get(key);
    if (!transport) {
      transport = nodemailer.createTransport({
        host: settings.host,
        port: settings.port,
        secure: settings.secure,
        auth: settings.user ? { user: settings.user, pass: settings.password } : undefined,
        connectionTimeout: this.timeoutMs,
        greetingTimeout: this.timeoutMs,
        socketTimeout: 2 * this.timeoutMs,
        // The connection is made by the guard, which judges the server's address every time.
        getSocket: this.guard.smtpSocket,
      });
      this.transports.set(key, transport);
    }
    return transport;
  }

  close(): void {
    for (const transport of this.transports.values()) transport.close();
    this.transports.clear();
  }
}

/**
 * The param naming the SMTP server is judged by the outbound guard when its key or value is written (param page); a
 * rename is not. Keys arrive trimmed (the param schema's `required`).
 */
export async function checkSmtpParam(platform: Platform, values: Row, existing: Row | undefined): Promise<void> {
  if (values.paramKey === undefined && values.paramValue === undefined) return;
  const merged = { ...existing, ...values };
  if (merged.paramKey === SMTP_PARAMS.host) await refuseLocalHost(platform, merged.paramValue);
}

interface SmtpSettings {
  host: string;
  port: number;
  secure: boolean;
  user: string;
  password: string;
  from: string;
}

async function smtpSettings(platform: Platform, tenantId: string): Promise<SmtpSettings> {
  const rows = await platform.db
    .selectFrom('blade_param')
    .select(['paramKey', 'paramValue'])
    .where('tenantId', '=', tenantId)
    .where('isDeleted', '=', 0)
    .where('paramKey', 'in', Object.values(SMTP_PARAMS))
    .execute();
  // Values arrive trimmed (the param schema's `required`).
  const value = (key: string) => String((rows as Row[]).find((r) => r.paramKey === key)?.paramValue ?? '');
  const secure = ['true', '1', 'yes'].includes(value(SMTP_PARAMS.secure).toLowerCase());
  return {
    host: value(SMTP_PARAMS.host),
    port: Number(value(SMTP_PARAMS.port)) || (secure ? 465 : 587),
    secure,
    user: value(SMTP_PARAMS.user),
    // Sealed at rest like every secret the server connects with (server/auth/secrets.ts).
    password: platform.secrets.open(value(SMTP_PARAMS.password)),
    from: value(SMTP_PARAMS.from),
  };
}
