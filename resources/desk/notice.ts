import { z } from 'zod';
import { defineResource } from '../define';
import { datetime, required } from '../fields';

/**
 * Station notices (spec §2 "Notice list dialog", §3 "Notice"). Content is rich text, sanitised by the server.
 * Reads are per user (blade_notice_read); a notice addressed to users (blade_notice_user) is visible only to them.
 */
export const notice = defineResource({
  service: 'blade-desk',
  name: 'notice',
  menu: 'notice',
  table: 'blade_notice',
  tenancy: 'tenant',
  fields: z.object({
    title: required('请输入通知标题'),
    category: z.coerce.number<unknown>({ error: '请选择通知类型' }).int('请选择通知类型').min(1, '请选择通知类型'),
    releaseTime: datetime().nullish(),
    content: z.string().max(200_000, '通知内容过长').nullish(),
  }),
  variants: ['page'],
  orderBy: [{ field: 'releaseTime', desc: true }],
  example: { title: '系统维护通知', category: 1, releaseTime: '2026-01-01 08:00:00', content: '<p>今晚 22:00 系统维护。</p>' },
});
