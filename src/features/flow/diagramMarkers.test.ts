import { describe, expect, it } from 'vitest';
import { ACTIVE_MARKER, diagramMarkers, FINISHED_MARKER, importProblem } from './diagramMarkers';

const known = new Set(['start', 'flow1', 'approve', 'flow2', 'end']);
const has = (id: string) => known.has(id);

describe('diagramMarkers', () => {
  it('marks finished and active elements', () => {
    expect(diagramMarkers(['start', 'flow1'], ['approve'], has)).toEqual([
      { id: 'start', marker: FINISHED_MARKER },
      { id: 'flow1', marker: FINISHED_MARKER },
      { id: 'approve', marker: ACTIVE_MARKER },
    ]);
  });

  it('lets active win over finished and names each element once', () => {
    expect(diagramMarkers(['start', 'approve', 'start'], ['approve', 'approve'], has)).toEqual([
      { id: 'start', marker: FINISHED_MARKER },
      { id: 'approve', marker: ACTIVE_MARKER },
    ]);
  });

  it('leaves out ids the diagram does not have', () => {
    expect(diagramMarkers(['gone', 'end'], ['missing'], has)).toEqual([{ id: 'end', marker: FINISHED_MARKER }]);
  });
});

describe('importProblem', () => {
  it('keeps the first line of the error', () => {
    expect(importProblem(new Error('unparsable content <foo> detected\n\tline: 3'))).toBe('unparsable content <foo> detected');
    expect(importProblem('no diagram to display')).toBe('no diagram to display');
  });
});
