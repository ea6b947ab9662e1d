import { Tag } from '@blueprintjs/core';
import { msg } from '@lingui/core/macro';
import { Trans } from '@lingui/react/macro';
import { formatDateTime } from '../../../resources/datetime';
import { DEFAULT_LINK_DAYS, displayLink, ROTATE_SECONDS } from '../../../resources/iot/screen';
import type { Row } from '../../crud/api';
import type { CrudView } from '../../crud/types';
import { derived, options } from '../../crud/viewHelpers';
import { channelTree } from './api';
import { pickedChannels, storedChannels } from './trendChannels';

const DAY_MS = 86_400_000;

/** A link's state as the server lists it (active, revoked, expired), as a tag. */
function StateTag({ state }: { state: unknown }) {
  if (state === 'revoked') return <Tag intent="danger" className="vg-link-state" data-state="revoked"><Trans>已撤销</Trans></Tag>;
  if (state === 'expired') return <Tag intent="warning" className="vg-link-state" data-state="expired"><Trans>已过期</Trans></Tag>;
  return <Tag intent="success" className="vg-link-state" data-state="active"><Trans>有效</Trans></Tag>;
}

const text = (value: unknown) => (value === undefined || value === null ? '' : String(value));

/**
 * 监测大屏: the display links (resources/iot/screen.ts). `projectNames` names the ids of a link's projects (the
 * caller's projects, loaded by the page); the page adds the row actions that show a secret.
 */
export function displayLinkView(projectNames: ReadonlyMap<string, string>): CrudView<typeof displayLink> {
  return {
    resource: displayLink,
    dialogWidth: 720,
    fields: [
      { name: 'name', label: msg`大屏名称`, search: true, required: msg`请输入大屏名称`, width: 180 },
      {
        name: 'projectIds',
        label: msg`轮播项目`,
        required: msg`请选择项目`,
        widget: { type: 'tree', source: 'api/wit-xinde/project/select', multiple: true },
        width: 220,
        cell: (row: Row) =>
          text(row.projectIds)
            .split(',')
            .filter(Boolean)
            .map((id) => projectNames.get(id) ?? id)
            .join('、'),
      },
      {
        name: 'layout',
        label: msg`主面板`,
        widget: options(['structure', msg`结构测点图`], ['values', msg`最新数据`], ['trends', msg`趋势曲线`]),
        initial: 'structure',
        width: 110,
      },
      {
        name: 'rotateSeconds',
        label: msg`轮播间隔(秒)`,
        widget: { type: 'number', min: ROTATE_SECONDS.min, max: ROTATE_SECONDS.max },
        initial: ROTATE_SECONDS.default,
        width: 110,
      },
      {
        name: 'expiresAt',
        label: msg`过期时间`,
        widget: { type: 'datetime' },
        // Shown filled in, so that "never" is a choice made by emptying it, not a default.
        initial: formatDateTime(new Date(Date.now() + DEFAULT_LINK_DAYS * DAY_MS)),
        help: msg`留空表示永不过期`,
        width: 170,
        cell: (row: Row) => (row.expiresAt ? text(row.expiresAt) : <Trans>永不过期</Trans>),
      },
      {
        name: 'trends',
        label: msg`趋势通道`,
        help: msg`每个项目最多 8 条；不选则显示每个项目的前 4 个通道`,
        widget: {
          type: 'tree',
          multiple: true,
          source: (_editing, query) => channelTree(query?.projectIds ? query.projectIds.split(',').filter(Boolean) : [], projectNames),
          query: (values) => ({ projectIds: Array.isArray(values.projectIds) ? values.projectIds.join(',') : text(values.projectIds) }),
        },
        wire: (value) => storedChannels(value),
        hideInTable: true,
      },
      { name: 'remark', label: msg`备注`, widget: { type: 'textarea', rows: 2 }, hideInTable: true },
      { ...derived('state', msg`状态`, 90), cell: (row: Row) => <StateTag state={row.state} /> },
      derived('createUserName', msg`创建人`, 110),
      { name: 'lastSeenTime', label: msg`最后访问`, hideInForm: true, width: 170 },
      { name: 'lastSeenIp', label: msg`访问地址`, hideInForm: true, width: 140, cell: (row: Row) => <span title={text(row.lastSeenAgent)}>{text(row.lastSeenIp)}</span> },
    ],
    toForm: (row) => ({ ...row, trends: pickedChannels(row.trends) }),
    // Channels of projects no longer chosen go with them.
    toBody: (body) => ({ ...body, trends: body.trends === null || body.trends === undefined ? body.trends : storedChannels(pickedChannels(body.trends), body.projectIds) }),
  };
}
