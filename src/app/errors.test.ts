import { beforeAll, describe, expect, it } from 'vitest';
import { RequestError } from '../api/http';
import { isRealFailure, logFailure, recordError } from './errors';
import { errorLogActor } from './shell';

const logs = () => errorLogActor.getSnapshot().context.logs.length;

beforeAll(() => {
  errorLogActor.start();
});

describe('the local error log counts real errors only', () => {
  it('takes runtime errors, network failures and 5xx', () => {
    expect(isRealFailure(new TypeError('x is undefined'))).toBe(true);
    expect(isRealFailure(new RequestError('网络异常', 0))).toBe(true);
    expect(isRealFailure(new RequestError('未知错误', 500))).toBe(true);
    expect(isRealFailure(new RequestError('网络异常', 502))).toBe(true);
  });

  it('leaves out refusals the server answered on purpose', () => {
    for (const code of [400, 401, 403, 404]) expect(isRealFailure(new RequestError('refused', code))).toBe(false);
  });

  it('logFailure appends a 500 and skips a validation 400', () => {
    const before = logs();
    logFailure(new RequestError('参数键名已存在', 400), 'submit');
    expect(logs()).toBe(before);
    logFailure(new RequestError('未知错误', 500), 'submit');
    expect(logs()).toBe(before + 1);
  });

  it('recordError (uncaught errors and rejections) follows the same rule', () => {
    const before = logs();
    recordError(new RequestError('请求被拒绝', 403), 'unhandledrejection');
    expect(logs()).toBe(before);
    recordError(new RequestError('网络异常', 0), 'unhandledrejection');
    recordError(new TypeError('x is undefined'));
    expect(logs()).toBe(before + 2);
  });
});
