import type { NoticeSummary } from '../../../machines/noticeCentre';
import { type Envelope, http } from '../../api/client';

/** The calls of the notice centre and the notice dialog (docs/alarms.md "Calls", spec §7 "Notices and alarms"). */

export const noticeSummary = (): Promise<NoticeSummary> =>
  http.get<Envelope<NoticeSummary>>('api/wit-xinde/alarm/getNoticeInfo').then((r) => r.data ?? { alarmNotices: [], alarmNum: 0, stationNotices: [] });

/** The caller's own console alarm sound (no id: their recipient rows). */
export const saveSound = (on: boolean): Promise<unknown> => http.post('api/wit-xinde/alarmrecipient/soundPperation', { json: { sound: on ? 1 : 0 } });

/** setRead for one notice, batchSetRead (body of notices) for the page's unread ones. */
export const markNoticesRead = (ids: readonly string[], single: boolean): Promise<unknown> =>
  single
    ? http.post('api/blade-desk/notice/setRead', { json: { id: ids[0] } })
    : http.post('api/blade-desk/notice/batchSetRead', { json: ids.map((id) => ({ id })) });

/** batchHandle: marks alarms handled with a result text. */
export const handleAlarms = (ids: readonly string[], handleResult: string): Promise<unknown> =>
  http.post('api/wit-xinde/alarm/batchHandle', { json: { ids: ids.join(','), handleResult } });
