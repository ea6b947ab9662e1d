import { describe, expect, it } from 'vitest';
import { RequestError } from '../../api/http';
import { definitionList, isSuspended, refusedForRunning } from './deployView';

describe('deployment manager rules', () => {
  it('lists through manager/list', () => {
    expect(definitionList.path).toBe('/blade-flow/manager');
  });

  it('tells suspended definitions', () => {
    expect(isSuspended({ id: '1', suspensionState: 2 })).toBe(true);
    expect(isSuspended({ id: '1', suspensionState: 1 })).toBe(false);
  });

  it('offers the cascade only for a refusal about running instances', () => {
    expect(refusedForRunning(new RequestError('该部署有2个运行中的流程实例,不能删除', 400))).toBe(true);
    expect(refusedForRunning(new RequestError('The deployment has 2 running process instances and cannot be deleted', 400))).toBe(true);
    expect(refusedForRunning(new RequestError('流程定义不存在或无权操作', 400))).toBe(false);
    expect(refusedForRunning(new RequestError('该部署有2个运行中的流程实例,不能删除', 500))).toBe(false);
    expect(refusedForRunning(new Error('该部署有2个运行中的流程实例,不能删除'))).toBe(false);
  });
});
