import type { BoardData, IndexData, QuickEntry } from '../../../resources/wire/statistics';
import { type Envelope, http } from '../../api/client';

/** The statistics calls (resources/wire/statistics.ts): the home overview, its quick entries, the data board. */

const X = 'api/wit-xinde';

/** Parameters without empty values (an unset filter is no filter). */
const given = (params: Record<string, string | undefined>) => Object.fromEntries(Object.entries(params).filter((entry): entry is [string, string] => !!entry[1]));

export const indexData = (projectId?: string): Promise<IndexData> =>
  http.get<Envelope<IndexData>>(`${X}/index/getIndexData`, { searchParams: given({ projectId }) }).then((r) => r.data);

export const quickEntries = (): Promise<QuickEntry[]> => http.get<Envelope<QuickEntry[]>>(`${X}/index/getMeunAuth`).then((r) => r.data ?? []);

export interface BoardQuery {
  projectId?: string;
  /** The platform administrator's tenant filter. */
  tenantId?: string;
  startTime: string;
  endTime: string;
}

export const boardData = (query: BoardQuery): Promise<BoardData> =>
  http.get<Envelope<BoardData>>(`${X}/countAvue/avueStatis`, { searchParams: given({ ...query }) }).then((r) => r.data);
