import { Button, Dialog, DialogBody } from '@blueprintjs/core';
import { useLingui } from '@lingui/react/macro';
import { useActorRef } from '@xstate/react';
import { useMemo, useRef } from 'react';
import { fromPromise } from 'xstate';
import { type MarkInput, noticeReadMachine } from '../../../machines/noticeRead';
import { CrudPage } from '../../crud/CrudPage';
import { confirm } from '../../ui/confirm';
import { toastSuccess, toastWarning } from '../../ui/toast';
import { markNoticesRead } from './api';
import { noticeListView } from './noticeView';
import './notice.css';

/** Spec §9 "Layout": the notice list dialog is 950 wide. */
export const NOTICE_LIST_WIDTH = 950;

export interface NoticeFilter {
  title?: string;
  id?: string;
}

interface NoticeDialogProps {
  isOpen: boolean;
  /** Opened from a station notice: the list starts filtered on its title and id. */
  filter?: NoticeFilter;
  onClose(): void;
  /** A notice was marked read (the bell reloads its summary). */
  onChanged(): void;
}

/** The 站内通知 dialog (spec §2 "Notice list dialog", §4 "Notice read state", §5 "Mark all as read"). */
export function NoticeDialog({ isOpen, filter, onClose, onChanged }: NoticeDialogProps) {
  const { t } = useLingui();
  // The list to reload after a mark; set from the row action or toolbar that started it.
  const refresh = useRef<() => void>(() => undefined);
  const changed = useRef(onChanged);
  changed.current = onChanged;
  const reader = useActorRef(
    noticeReadMachine.provide({
      actors: {
        confirm: fromPromise<boolean>(() => confirm(t`确定将未读数据全部标记为已读?`)),
        mark: fromPromise<void, MarkInput>(async ({ input }) => {
          await markNoticesRead(input.ids, input.single);
        }),
      },
      actions: {
        warnNothingUnread: () => toastWarning(t`没有未读通知。`),
        marked: () => {
          toastSuccess(t`操作成功!`);
          refresh.current();
          changed.current();
        },
      },
    }),
  );
  const view = useMemo(
    () =>
      noticeListView((row, context) => {
        refresh.current = context.refresh;
        reader.send({ type: 'read.mark', row });
      }),
    [reader],
  );
  const search = useMemo(() => (filter ? Object.fromEntries(Object.entries(filter).filter(([, v]) => v)) : undefined), [filter]);

  return (
    <Dialog isOpen={isOpen} title={t`站内通知`} onClose={onClose} style={{ width: NOTICE_LIST_WIDTH, maxWidth: '95vw' }} className="vg-notice-dialog">
      <DialogBody>
        {isOpen && (
          <CrudPage
            key={JSON.stringify(search ?? {})}
            view={view}
            initialSearch={search}
            toolbar={({ records, refresh: reload }) => (
              <Button
                icon="tick-circle"
                intent="primary"
                text={t`全部标为已读`}
                className="vg-mark-all"
                onClick={() => {
                  refresh.current = reload;
                  reader.send({ type: 'read.markAll', rows: records });
                }}
              />
            )}
          />
        )}
      </DialogBody>
    </Dialog>
  );
}
