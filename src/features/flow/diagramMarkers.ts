/** The canvas markers of a process diagram (src/features/flow/ProcessDiagram.tsx, css in processDiagram.css). */

export const FINISHED_MARKER = 'vg-flow-finished';
export const ACTIVE_MARKER = 'vg-flow-active';

export interface ElementMarker {
  id: string;
  marker: typeof FINISHED_MARKER | typeof ACTIVE_MARKER;
}

/**
 * Which element gets which marker: active elements are active even when the history also lists them as finished (a
 * task entered again after a rejection loop); ids the diagram does not have (an element removed from a later version,
 * an instance's run of another version) are left out, each id once.
 */
export function diagramMarkers(
  finished: readonly string[],
  active: readonly string[],
  has: (id: string) => boolean,
): ElementMarker[] {
  const activeIds = new Set(active.filter(has));
  const markers: ElementMarker[] = [];
  const seen = new Set<string>();
  for (const id of finished) {
    if (seen.has(id) || activeIds.has(id) || !has(id)) continue;
    seen.add(id);
    markers.push({ id, marker: FINISHED_MARKER });
  }
  for (const id of activeIds) markers.push({ id, marker: ACTIVE_MARKER });
  return markers;
}

/** The message of an import failure as bpmn-js gives it (an Error, sometimes with warnings), one line. */
export function importProblem(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.split('\n')[0]?.trim() || String(error);
}
