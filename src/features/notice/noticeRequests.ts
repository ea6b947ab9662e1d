import { Subject } from 'rxjs';

/**
 * Between the bell (NoticeBell, in the top bar) and the screens that count notices (the home): a screen asks the
 * bell to open its 站内通知 dialog — so the notice list, its read marks and the badge stay one — and hears when
 * notices were marked read there.
 */
const openRequests = new Subject<void>();
const marks = new Subject<void>();

export const openNoticeList = (): void => openRequests.next();

/** The bell listens while it is mounted; returns the unsubscribe. */
export function onNoticeListRequest(listener: () => void): () => void {
  const subscription = openRequests.subscribe(listener);
  return () => subscription.unsubscribe();
}

/** Whether a bell is there to open the dialog (there is none for a user still awaiting approval). */
export const noticeListAvailable = (): boolean => openRequests.observed;

/** Notices were marked read in the bell's dialog. */
export const noticesMarked = (): void => marks.next();
export const noticeMarks$ = marks.asObservable();
