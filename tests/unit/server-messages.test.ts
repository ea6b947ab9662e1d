// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { EN } from '../../resources/messages-en';
import { languageOf, translate } from '../../resources/messages';
import { QUIET_MESSAGES } from '../../src/api/http';
import { serverMessages } from '../support/messages';

const HAN = /[\u4e00-\u9fff]/;
const root = new URL('../..', import.meta.url).pathname;

describe('server messages in English', () => {
  it('every message of server/ and resources/ has English (resources/messages-en.ts)', () => {
    const found = serverMessages(root);
    expect(found.length).toBeGreaterThan(500);
    // A value stands in for each `${…}`: what is left of the Chinese must translate whole.
    const untranslated = found
      .map((message) => ({ ...message, english: translate(message.parts.join('7'), 'en') }))
      .filter(({ english }) => HAN.test(english))
      .map(({ file, line, parts, english }) => `${file}:${line} ${parts.join('{…}')} -> ${english}`);
    expect(untranslated).toEqual([]);
  });

  it('has no Chinese in its English', () => {
    expect(Object.values(EN).filter((english) => HAN.test(english))).toEqual([]);
  });

  it('keeps the placeholders of each template', () => {
    const names = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
    const mismatched = Object.entries(EN).filter(([chinese, english]) => names(chinese).join() !== names(english).join());
    expect(mismatched).toEqual([]);
  });

  it('takes the language from the first tag of Accept-Language', () => {
    expect(languageOf('en')).toBe('en');
    expect(languageOf('en-GB,en;q=0.9,zh;q=0.8')).toBe('en');
    expect(languageOf('zh-CN,en;q=0.9')).toBe('zh');
    expect(languageOf('fr')).toBe('zh');
    expect(languageOf(undefined)).toBe('zh');
  });

  it('translates joined messages part by part and keeps the data', () => {
    expect(translate('参数校验失败: name: 请输入项目名称; code: 长度不能超过64个字符', 'en')).toBe(
      'Invalid parameters: name: Enter the project name; code: At most 64 characters',
    );
    expect(translate('limit 应在 1 到 500 之间', 'en')).toBe('limit must be between 1 and 500');
    expect(translate('设备 D-01 点位 tilt_x: 公式为空', 'en')).toBe('Device D-01, point tilt_x: The formula is empty');
    // Names are data: a template's value is never translated unless it is a message in its own right.
    expect(translate('产品包正被租户「项目不存在或无权操作」使用,不能删除', 'en')).toBe('Tenant “项目不存在或无权操作” uses this package: it cannot be deleted');
    expect(translate('某个未知的句子', 'en')).toBe('某个未知的句子');
    expect(translate('请输入项目名称', 'zh')).toBe('请输入项目名称');
  });

  it('gives the console the English of the messages it keeps quiet', () => {
    expect(QUIET_MESSAGES).toContain(translate('请求未授权', 'en'));
  });
});
