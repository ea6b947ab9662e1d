/**
 * A display link's charted channels (`trends`, resources/iot/screen.ts): stored as JSON `{"<projectId>":
 * ["<deviceId>:<pointKey>", …]}`, picked in the form as tree nodes `<projectId>|<deviceId>:<pointKey>`.
 */

const SEPARATOR = '|';

/** A picked channel's node id. */
export const channelNode = (projectId: string, channel: string): string => `${projectId}${SEPARATOR}${channel}`;

/** The picked nodes of a stored value (none for an empty or unreadable one). */
export function pickedChannels(stored: unknown): string[] {
  let parsed: unknown = stored;
  if (typeof stored === 'string') {
    try {
      parsed = stored.trim() ? JSON.parse(stored) : {};
    } catch {
      return [];
    }
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return [];
  return Object.entries(parsed as Record<string, unknown>).flatMap(([projectId, channels]) =>
    Array.isArray(channels) ? channels.filter((c): c is string => typeof c === 'string').map((c) => channelNode(projectId, c)) : [],
  );
}

const idsOf = (value: unknown): string[] =>
  Array.isArray(value) ? value.map(String) : typeof value === 'string' && value ? value.split(',') : [];

/**
 * The stored value of picked nodes, kept to `projectIds` when given (a project unticked takes its channels with it):
 * JSON by project, or null when none is picked (the screen then charts each project's first channels).
 */
export function storedChannels(picked: unknown, projectIds?: unknown): string | null {
  const projects = projectIds === undefined ? undefined : new Set(idsOf(projectIds));
  const byProject: Record<string, string[]> = {};
  for (const node of idsOf(picked)) {
    const at = node.indexOf(SEPARATOR);
    if (at <= 0) continue;
    const projectId = node.slice(0, at);
    if (projects && !projects.has(projectId)) continue;
    (byProject[projectId] ??= []).push(node.slice(at + 1));
  }
  return Object.keys(byProject).length ? JSON.stringify(byProject) : null;
}
