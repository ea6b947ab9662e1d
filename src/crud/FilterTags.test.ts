import { setupI18n } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { describe, expect, it } from 'vitest';
import { filterText } from './FilterTags';
import { filtersBeyond } from './query';
import type { FieldView } from './types';
import { options } from './viewHelpers';

const i18n = setupI18n({ locale: 'zh', messages: { zh: {} } });
const fields: FieldView[] = [
  { name: 'online', label: msg`在线状态`, widget: options(['1', msg`在线`], ['0', msg`离线`]) },
  { name: 'lastSeen', label: msg`最后上报` },
  { name: 'firstTime', label: msg`首次告警时间` },
  { name: 'projectId', label: msg`所属项目`, widget: { type: 'tree', source: 'api/wit-xinde/project/select' } },
];
const said = (search: Record<string, string>, titles?: Map<string, string>) => filtersBeyond(search, new Set()).map((f) => filterText(f, fields, i18n, titles));

describe('filter tags', () => {
  it('names a filter by its column, comparison and value', () => {
    expect(said({ online: '0', lastSeen_null: '1', firstTime_datege: '2026-03-01', id: '42', tenantId_equal: '100001', other_notlike: 'x' })).toEqual([
      '在线状态 = 离线',
      '最后上报 为空',
      '首次告警时间 ≥ 2026-03-01',
      '编号 = 42',
      '租户 = 100001',
      'other 不包含 x',
    ]);
  });

  it('names a reference by the title its picker gives, the id until it is known', () => {
    expect(said({ projectId: '7' })).toEqual(['所属项目 = 7']);
    expect(said({ projectId: '7' }, new Map([['projectId:7', '长江大桥']]))).toEqual(['所属项目 = 长江大桥']);
  });
});
