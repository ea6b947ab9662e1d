import { type Envelope, http } from '../../api/client';
import type { Row, TreeOption } from '../../crud/api';
import { channelNode } from './trendChannels';

/** The calls of the display link manager (监测大屏) and its layout editor (server/modules/wit-xinde/screen/). */

const X = 'api/wit-xinde';

/** A new secret for a link: answered this once (the old one opens nothing from now on). */
export async function regenerateLink(id: string): Promise<string> {
  return (await http.post<Envelope<{ id: string; secret: string }>>(`${X}/displaylink/regenerate`, { json: { id } })).data.secret;
}

/** Ends the links at once, for good; their screens are told and closed. */
export async function revokeLinks(ids: readonly string[]): Promise<void> {
  await http.post(`${X}/displaylink/revoke`, { json: { ids: ids.join(',') } });
}

/** The full address that opens a link's wall screen: its secret in the fragment, which no server ever receives. */
export const wallAddress = (secret: string, origin = window.location.origin): string => `${origin}/wall#${secret}`;

/** The caller's projects (the picker call every screen may use), with their wall-screen image. */
export async function projects(): Promise<Row[]> {
  return (await http.get<Envelope<Row[]>>(`${X}/project/select`)).data ?? [];
}

/** A project's monitor points with their places on its image. */
export async function monitorPoints(projectId: string): Promise<Row[]> {
  return (await http.get<Envelope<Row[]>>(`${X}/monitorpoint/select`, { searchParams: { projectId } })).data ?? [];
}

export interface Placement {
  id: string;
  x: number | null;
  y: number | null;
}

/** The project's image (a link of an image attachment; null removes it) and its points' places, in one call. */
export async function saveLayout(projectId: string, image: string | null, points: readonly Placement[]): Promise<void> {
  await http.post(`${X}/screen/layout`, { json: { projectId, image, points }, ownRefusals: false });
}

/**
 * The channels a link may chart, as a tree: the chosen projects, their devices, each device's points (the pickers'
 * calls). Projects and devices are headings; a channel's id is `<projectId>|<deviceId>:<pointKey>`.
 */
export async function channelTree(projectIds: readonly string[], names: ReadonlyMap<string, string>): Promise<TreeOption[]> {
  return Promise.all(
    projectIds.map(async (projectId): Promise<TreeOption> => {
      const devices = (await http.get<Envelope<Row[]>>(`${X}/device/select`, { searchParams: { projectId } })).data ?? [];
      const children = await Promise.all(
        devices.map(async (device): Promise<TreeOption> => {
          const points = (await http.get<Envelope<Row[]>>(`${X}/devicepoint/select`, { searchParams: { deviceId: device.id } })).data ?? [];
          return {
            id: `${projectId}/${device.id}`,
            title: `${String(device.name ?? device.code ?? device.id)}`,
            group: true,
            children: points.map((p) => ({ id: channelNode(projectId, `${device.id}:${String(p.pointKey)}`), title: `${String(p.name ?? p.pointKey)} (${String(p.pointKey)})` })),
          };
        }),
      );
      return { id: projectId, title: names.get(projectId) ?? projectId, group: true, children };
    }),
  );
}
