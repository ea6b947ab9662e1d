import { Button, Callout, Dialog, DialogBody, DialogFooter, InputGroup, Menu, MenuItem, Spinner } from '@blueprintjs/core';
import { useLingui } from '@lingui/react/macro';
import { type ReactNode, useEffect, useState } from 'react';
import { findUsers, type UserOption } from './api';

/** A user's name as the pickers show it: 张三 (zhangsan). */
export const userLabel = (user: UserOption): string => {
  const name = user.realName;
  return name ? `${name} (${user.account})` : user.account;
};

/**
 * Picks a user of the caller's tenant (transfer, delegate, the leave's approver): a search by name or account over
 * the user list, the first 20 matches, one chosen. `exclude` leaves out users who cannot be chosen (the caller).
 */
export function UserPickerDialog({
  title,
  confirmText,
  exclude,
  children,
  onPick,
  onClose,
}: {
  title: string;
  confirmText?: string;
  exclude?: string;
  /** Shown above the search (what the choice will do). */
  children?: ReactNode;
  onPick(user: UserOption): void;
  onClose(): void;
}) {
  const { t } = useLingui();
  const [query, setQuery] = useState('');
  const [users, setUsers] = useState<UserOption[]>();
  const [problem, setProblem] = useState<string>();
  const [chosen, setChosen] = useState<UserOption>();

  useEffect(() => {
    let live = true;
    // Typing settles before each search.
    const timer = setTimeout(() => {
      findUsers(query).then(
        (found) => {
          if (!live) return;
          setUsers(found.filter((u) => u.id !== exclude));
          setProblem(undefined);
        },
        (error: unknown) => {
          if (!live) return;
          setUsers([]);
          setProblem(error instanceof Error ? error.message : String(error));
        },
      );
    }, 250);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [query, exclude]);

  return (
    <Dialog isOpen title={title} icon="people" onClose={onClose} className="vg-user-picker-dialog">
      <DialogBody>
        <div className="vg-user-picker">
          {children}
          <InputGroup id="user-picker-search" fill leftIcon="search" placeholder={t`姓名或账号`} value={query} onChange={(e) => setQuery(e.target.value)} autoFocus />
          {problem && (
            <Callout intent="warning" compact>
              {t`无法读取用户列表:${problem}`}
            </Callout>
          )}
          <div className="vg-user-picker-list">
            {users === undefined ? (
              <Spinner size={20} />
            ) : users.length === 0 ? (
              !problem && <p className="bp6-text-muted">{t`没有找到用户`}</p>
            ) : (
              <Menu>
                {users.map((user) => (
                  <MenuItem
                    key={user.id}
                    icon="person"
                    className="vg-user-option"
                    text={userLabel(user)}
                    label={user.deptName ?? undefined}
                    active={chosen?.id === user.id}
                    onClick={() => setChosen(user)}
                  />
                ))}
              </Menu>
            )}
          </div>
        </div>
      </DialogBody>
      <DialogFooter
        actions={
          <>
            <Button text={t`取消`} onClick={onClose} />
            <Button intent="primary" text={confirmText ?? t`确定`} disabled={!chosen} onClick={() => chosen && onPick(chosen)} />
          </>
        }
      />
    </Dialog>
  );
}
