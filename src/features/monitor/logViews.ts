import { msg } from '@lingui/core/macro';
import { apiLog } from '../../../resources/log/api';
import { errorLog } from '../../../resources/log/error';
import { usualLog } from '../../../resources/log/usual';
import type { CrudView, FieldName, FieldView } from '../../crud/types';

/**
 * The three read-only logs (spec §7: list and detail only). The log menus carry no buttons, so 查看 is a row
 * action of its own; the detail shows every field, long text preformatted.
 */
type LogResource = typeof usualLog | typeof apiLog | typeof errorLog;
type LogField<R extends LogResource> = FieldView<FieldName<R>>;

const PRE = { type: 'pre' } as const;

/** Columns every log shares, in the order the detail shows them. */
function commonFields<R extends LogResource>(): LogField<R>[] {
  return [
    { name: 'serviceId', label: msg`服务ID`, search: true, width: 100 },
    { name: 'serverHost', label: msg`服务器名`, hideInTable: true },
    { name: 'serverIp', label: msg`服务器IP`, hideInTable: true },
    { name: 'env', label: msg`软件环境`, hideInTable: true },
    { name: 'method', label: msg`请求方法`, search: true, width: 90 },
    { name: 'requestUri', label: msg`请求接口`, search: true, width: 220 },
    { name: 'remoteIp', label: msg`操作IP`, hideInTable: true },
    { name: 'createBy', label: msg`操作人`, width: 100 },
    { name: 'createTime', label: msg`日志时间`, width: 160 },
    { name: 'userAgent', label: msg`用户代理`, widget: PRE, hideInTable: true },
    { name: 'params', label: msg`请求数据`, widget: PRE, hideInTable: true },
  ];
}

function logView<R extends LogResource>(resource: R, own: LogField<R>[]): CrudView<R> {
  return {
    resource,
    dateRange: true,
    actions: { add: false, edit: false, delete: false, view: false },
    dialogWidth: 880,
    fields: [...commonFields<R>(), ...own],
    rowActions: [{ key: 'detail', label: msg`查看`, icon: 'eye-open', run: (row, context) => context.openForm('view', row) }],
  };
}

export const usualLogView = logView(usualLog, [
  { name: 'logLevel', label: msg`日志级别`, width: 100 },
  { name: 'logId', label: msg`日志业务ID`, width: 120 },
  { name: 'logData', label: msg`日志数据`, widget: PRE, hideInTable: true },
]);

export const apiLogView = logView(apiLog, [
  { name: 'title', label: msg`日志名`, hideInTable: true },
  { name: 'type', label: msg`响应状态`, width: 90 },
  { name: 'time', label: msg`执行时间(ms)`, width: 100 },
  { name: 'methodClass', label: msg`方法类`, hideInTable: true },
  { name: 'methodName', label: msg`方法名`, hideInTable: true },
]);

export const errorLogView = logView(errorLog, [
  { name: 'exceptionName', label: msg`异常名`, width: 140 },
  { name: 'message', label: msg`异常信息`, widget: PRE, width: 200 },
  { name: 'fileName', label: msg`文件名`, hideInTable: true },
  { name: 'lineNumber', label: msg`代码行数`, hideInTable: true },
  { name: 'methodClass', label: msg`方法类`, hideInTable: true },
  { name: 'methodName', label: msg`方法名`, hideInTable: true },
  { name: 'stackTrace', label: msg`堆栈信息`, widget: PRE, hideInTable: true },
]);
