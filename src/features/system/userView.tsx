import { Tag } from '@blueprintjs/core';
import { i18n, type I18n } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { Trans } from '@lingui/react/macro';
import { user } from '../../../resources/system/user';
import { type Envelope, http } from '../../api/client';
import type { Row } from '../../crud/api';
import type { CrudView, FormMode, TreeOption } from '../../crud/types';
import { passwordProblem, phoneProblem } from '../info/validation';

/** A user registered through a third-party login waits for approval (status 0) until an administrator sets 1. */
export const PENDING = 0;

export const ROLE_TREE = 'api/blade-system/role/tree';
export const DEPT_TREE = 'api/blade-system/dept/tree';
const TENANT_TREE = 'api/blade-system/tenant/treeList';
const PLATFORM_TENANT = '000000';

/** The posts of the tenant asked about (the caller's without one) as options; post/select answers rows, not nodes. */
export const postOptions = (_editing?: Row, query?: Readonly<Record<string, string>>): Promise<TreeOption[]> =>
  http
    .get<Envelope<Row[]>>('api/blade-system/post/select', { searchParams: query })
    .then((r) => (r.data ?? []).map((p) => ({ id: String(p.id), title: String(p.postName ?? '') })));

/**
 * The pickers of a user's roles, depts and posts list the user's tenant: the one chosen in the form (the platform
 * administrator adds users to any tenant) or the edited user's own. Without one the server answers the caller's.
 */
export const userTenant = (values: Readonly<Record<string, unknown>>): Record<string, string> | undefined =>
  values.tenantId ? { tenantId: String(values.tenantId) } : undefined;

/** The platform administrator picks the tenant of a new user; an existing user keeps its own. */
const tenantField = {
  name: 'tenantId' as const,
  label: msg`所属租户`,
  widget: { type: 'tree' as const, source: TENANT_TREE },
  required: msg`请选择所属租户`,
  initial: PLATFORM_TENANT,
  disabled: (mode: FormMode) => mode !== 'add',
  clears: ['roleId', 'deptId', 'postId'],
  span: 12 as const,
  cell: (row: Row) => text(row.tenantName),
  width: 120,
};

const text = (value: unknown) => (value === undefined || value === null ? '' : String(value));

/** Spec §5 password policy; an empty password gets the field's required message. */
const password = (value: unknown, i18n: I18n) => (text(value) ? passwordProblem(text(value), i18n) : undefined);

/** Spec §5 phone messages for a phone that is given; the server accepts a user without one. */
const phone = (value: unknown, i18n: I18n) => (text(value) ? phoneProblem(text(value), i18n) : undefined);

/** Some address is locked out of the account, or its sign-in needs a captcha (docs/sign-in.md): 账号解封 lifts both. */
const isLocked = (row: Row) => row.locked === true || row.captchaRequired === true;

const lockTag = (row: Row) =>
  row.locked === true ? (
    <Tag intent="danger" minimal className="vg-user-locked" title={i18n._(msg`登录失败次数过多,有地址被锁定`)}><Trans>锁定</Trans></Tag>
  ) : row.captchaRequired === true ? (
    <Tag intent="warning" minimal className="vg-user-captcha" title={i18n._(msg`登录失败次数过多,登录需要验证码`)}><Trans>需验证码</Trans></Tag>
  ) : null;

const statusCell = (row: Row) => (
  <>
    {Number(row.status) === PENDING ? (
      <Tag intent="warning" minimal className="vg-user-pending"><Trans>待审核</Trans></Tag>
    ) : (
      <Tag intent="success" minimal><Trans>正常</Trans></Tag>
    )}{' '}
    {lockTag(row)}
  </>
);

export interface UserViewOptions {
  /** The platform administrator sees users of every tenant: the list shows each user's tenant. */
  platformAdmin: boolean;
  /** Approves a pending user (submit {id, status: 1}). */
  approve(row: Row, refresh: () => void): void;
  /** Opens the platform settings (user type and JSON extension) of a user. */
  platform(row: Row): void;
  /** Lifts the sign-in locks of a locked user (POST unlock). */
  unlock?(row: Row, refresh: () => void): void;
}

const addOnly = (mode: FormMode) => mode !== 'add';

/** Spec §2 "User management": the list beside the dept tree, the user form and the per-row account actions. */
export function userView({ platformAdmin, approve, platform, unlock }: UserViewOptions): CrudView<typeof user> {
  return {
    resource: user,
    dialogWidth: 880,
    fields: [
      { name: 'account', label: msg`登录账号`, search: true, required: msg`请输入登录账号`, disabled: (mode) => mode !== 'add', width: 130 },
      ...(platformAdmin ? [tenantField] : []),
      { name: 'password', label: msg`密码`, widget: { type: 'password' }, required: msg`请输入密码`, check: password, hideInTable: true, hideInForm: addOnly },
      { name: 'name', label: msg`用户昵称`, required: msg`请输入用户昵称`, width: 110 },
      { name: 'realName', label: msg`用户姓名`, search: true, required: msg`请输入用户姓名`, width: 110 },
      { name: 'status', label: msg`用户状态`, cell: statusCell, hideInForm: true, width: 90 },
      { name: 'roleId', label: msg`所属角色`, widget: { type: 'tree', source: ROLE_TREE, multiple: true, query: userTenant }, span: 12, cell: (row) => text(row.roleName), sortable: false, width: 140 },
      { name: 'deptId', label: msg`所属部门`, widget: { type: 'tree', source: DEPT_TREE, multiple: true, query: userTenant }, span: 12, cell: (row) => text(row.deptName), sortable: false, width: 140 },
      { name: 'postId', label: msg`所属岗位`, widget: { type: 'tree', source: postOptions, multiple: true, query: userTenant }, span: 12, cell: (row) => text(row.postName), sortable: false, width: 120 },
      { name: 'phone', label: msg`手机号码`, check: phone, width: 130 },
      { name: 'email', label: msg`电子邮箱`, width: 180 },
      { name: 'sex', label: msg`用户性别`, widget: { type: 'select', dict: 'sex' }, hideInTable: true },
      { name: 'birthday', label: msg`用户生日`, widget: { type: 'date', midnight: true }, hideInTable: true },
    ],
    rowActions: [
      { key: 'approve', label: msg`审核通过`, icon: 'tick-circle', permission: 'edit', visible: (row) => Number(row.status) === PENDING, run: (row, context) => approve(row, context.refresh) },
      { key: 'platform', label: msg`平台配置`, icon: 'cog', permission: 'platform', run: (row) => platform(row) },
      ...(unlock
        ? [{ key: 'unlock', label: msg`账号解封`, icon: 'unlock' as const, permission: 'unlock', visible: isLocked, run: (row: Row, context: { refresh(): void }) => unlock(row, context.refresh) }]
        : []),
    ],
  };
}
