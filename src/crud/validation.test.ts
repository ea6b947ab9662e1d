import { i18n } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { beforeAll, describe, expect, it } from 'vitest';
import { param } from '../../resources/system/param';
import { dict } from '../../resources/system/dict';
import { translate } from '../../resources/messages';
import { activate, loadConsoleCatalogue } from '../app/i18n';
import { fieldProblem, formProblems, isRequired, refusalProblems, wireValue } from './validation';
import { mqttUser } from '../../resources/iot/mqtt';
import { mqttUserView } from '../features/mqtt/mqttViews';
import { paramView } from '../features/system/paramView';

describe('form validation', () => {
  // The forms are the console's: their strings are in its catalogue, which a console page loads (src/app/lazyPage.ts).
  beforeAll(async () => {
    await loadConsoleCatalogue();
    await activate('zh');
  });

  it('gives the spec messages for empty required param fields', () => {
    expect(formProblems(param, paramView.fields, {}, i18n)).toEqual({ paramName: '请输入参数名称', paramKey: '请输入参数键名', paramValue: '请输入参数键值' });
    expect(formProblems(param, paramView.fields, { paramName: 'a', paramKey: 'b', paramValue: 'c' }, i18n)).toEqual({});
    expect(fieldProblem(param, paramView.fields[0], '   ', i18n)).toBe('请输入参数名称');
  });

  it("applies the resource's own rules beyond emptiness", () => {
    expect(fieldProblem(param, { name: 'paramName', label: msg`参数名称` }, 'x'.repeat(256), i18n)).toBe('长度不能超过255个字符');
    expect(fieldProblem(dict, { name: 'sort', label: msg`字典排序`, required: msg`请输入字典排序` }, '1.5', i18n)).toBe('请输入字典排序');
    expect(fieldProblem(dict, { name: 'remark', label: msg`字典备注` }, '', i18n)).toBeUndefined();
  });

  it('checks and sends a numeric select as a number (a literal union)', () => {
    const clientType = mqttUserView.fields.find((f) => f.name === 'clientType');
    if (!clientType) throw new Error('no clientType field');
    expect(wireValue(clientType, '2')).toBe(2);
    expect(wireValue(clientType, '')).toBe('');
    expect(fieldProblem(mqttUser, clientType, '2', i18n)).toBeUndefined();
    expect(fieldProblem(mqttUser, clientType, '9', i18n)).toBe('请选择客户端类型');
    // A plain select stays text.
    expect(wireValue({ name: 'x', label: msg`X`, widget: { type: 'select', options: [{ value: '1', label: msg`一` }] } }, '1')).toBe('1');
  });

  it("checks and sends a field in the form its `wire` gives (a picked list stored as JSON)", () => {
    const field = { name: 'paramValue', label: msg`参数键值`, wire: (value: unknown) => JSON.stringify(value) };
    expect(wireValue(field, ['a', 'b'])).toBe('["a","b"]');
    expect(fieldProblem(param, field, ['a'], i18n)).toBeUndefined();
    // The schema sees the wire form: too long once written out.
    expect(fieldProblem(param, field, ['x'.repeat(70_000)], i18n)).toBeDefined();
  });

  it('follows the language', async () => {
    await activate('en');
    expect(fieldProblem(param, paramView.fields[0], '', i18n)).toBe('Please enter the parameter name');
    // The resource's own rule, in the server's English for it.
    expect(fieldProblem(param, { name: 'paramName', label: msg`参数名称` }, 'x'.repeat(256), i18n)).toBe(translate('长度不能超过255个字符', 'en'));
    expect(fieldProblem(param, { name: 'paramName', label: msg`参数名称` }, 'x'.repeat(256), i18n)).not.toMatch(/[\u4e00-\u9fff]/);
    await activate('zh');
  });
});

describe('refusals mapped to fields', () => {
  beforeAll(() => activate('zh'));
  const fields = paramView.fields;

  it("maps zod's `field: message` parts, in either language, to the form's fields", () => {
    expect(refusalProblems('参数校验失败: paramName: 请输入参数名称; paramKey: 长度不能超过255个字符', fields, i18n)).toEqual({
      paramName: '请输入参数名称',
      paramKey: '长度不能超过255个字符',
    });
    expect(refusalProblems('Invalid parameters: paramValue: Enter the value', fields, i18n)).toEqual({ paramValue: 'Enter the value' });
    expect(refusalProblems('paramKey: 已存在', fields, i18n)).toEqual({ paramKey: '已存在' });
  });

  it('keeps the first message of a field and leaves out parts naming no field of the form', () => {
    expect(refusalProblems('参数校验失败: paramKey: a; paramKey: b; other: c', fields, i18n)).toEqual({ paramKey: 'a' });
    expect(refusalProblems('参数校验失败: other: c', fields, i18n)).toEqual({});
  });

  it("maps a bare message to the field whose required message it is, else to nothing", () => {
    expect(refusalProblems('请输入参数键名', fields, i18n)).toEqual({ paramKey: '请输入参数键名' });
    expect(refusalProblems('参数键名已存在', fields, i18n)).toEqual({});
  });

  it('marks as required the fields the view or the schema refuses empty', () => {
    const [paramName] = fields;
    expect(isRequired(param, paramName)).toBe(true);
    expect(isRequired(param, { name: 'paramKey', label: msg`参数键名` })).toBe(true);
    expect(isRequired(param, { name: 'remark', label: msg`备注` })).toBe(false);
  });
});
