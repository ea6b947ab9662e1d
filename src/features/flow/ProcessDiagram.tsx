import { Button, ButtonGroup, NonIdealState, Spinner } from '@blueprintjs/core';
import { useLingui } from '@lingui/react/macro';
import type NavigatedViewer from 'bpmn-js/lib/NavigatedViewer';
import type Canvas from 'diagram-js/lib/core/Canvas';
import type ElementRegistry from 'diagram-js/lib/core/ElementRegistry';
import { useEffect, useRef, useState } from 'react';
import { diagramMarkers, type ElementMarker, importProblem } from './diagramMarkers';
import './processDiagram.css';

export interface ProcessDiagramProps {
  /** The BPMN 2.0 XML with its diagram (FlowDiagram.xml, a definition's XML). */
  xml: string;
  /** Elements that ran: activities and the sequence flows taken (FlowDiagram.finished). */
  finished?: readonly string[];
  /** Elements active now: open user tasks, waiting timers (FlowDiagram.active). */
  active?: readonly string[];
  /** Height of the canvas (CSS); the width is the container's. Default 480 px. */
  height?: number | string;
  className?: string;
}

/**
 * Fits the whole diagram and centres it. diagram-js takes `'auto'` as the centre (its docs and code) though its types
 * name only a point: the cast bridges that gap.
 */
const fitDiagram = (canvas: Canvas) => canvas.zoom('fit-viewport', 'auto' as unknown as Parameters<Canvas['zoom']>[1]);

type Status = { kind: 'loading' } | { kind: 'ready' } | { kind: 'failed'; message: string };

/**
 * A read-only BPMN diagram: finished elements in green, active ones in orange (pulsing), fitted to the viewport and
 * fitted again when its container changes size; drag to pan, Ctrl/⌘+wheel to zoom. bpmn-js and its styles load with
 * the first diagram shown (bpmnViewer.ts, a lazy chunk). An XML that bpmn-js cannot import shows why instead.
 */
export function ProcessDiagram({ xml, finished = [], active = [], height = 480, className }: ProcessDiagramProps) {
  const { t } = useLingui();
  const host = useRef<HTMLDivElement>(null);
  const [viewer, setViewer] = useState<NavigatedViewer>();
  const [status, setStatus] = useState<Status>({ kind: 'loading' });
  /** Bumped by each successful import: markers are applied to the diagram that import drew. */
  const [imported, setImported] = useState(0);

  // The viewer: created once the chunk has loaded, destroyed with the component.
  useEffect(() => {
    let gone = false;
    let created: NavigatedViewer | undefined;
    import('./bpmnViewer').then(
      ({ NavigatedViewer: Viewer }) => {
        if (gone || !host.current) return;
        created = new Viewer({ container: host.current });
        setViewer(created);
      },
      (error: unknown) => !gone && setStatus({ kind: 'failed', message: importProblem(error) }),
    );
    return () => {
      gone = true;
      created?.destroy();
    };
  }, []);

  // The XML: imported and fitted whenever it changes.
  useEffect(() => {
    if (!viewer) return;
    let stale = false;
    if (!xml.trim()) {
      viewer.clear();
      setStatus({ kind: 'failed', message: t`没有流程图` });
      return;
    }
    setStatus({ kind: 'loading' });
    viewer.importXML(xml).then(
      () => {
        if (stale) return;
        fitDiagram(viewer.get<Canvas>('canvas'));
        setStatus({ kind: 'ready' });
        setImported((n) => n + 1);
      },
      (error: unknown) => !stale && setStatus({ kind: 'failed', message: importProblem(error) }),
    );
    return () => {
      stale = true;
    };
  }, [viewer, xml, t]);

  // The markers of the imported diagram; removed again before the next ones.
  const finishedKey = finished.join('\n');
  const activeKey = active.join('\n');
  useEffect(() => {
    if (!viewer || imported === 0) return;
    const canvas = viewer.get<Canvas>('canvas');
    const registry = viewer.get<ElementRegistry>('elementRegistry');
    const markers: ElementMarker[] = diagramMarkers(
      finishedKey ? finishedKey.split('\n') : [],
      activeKey ? activeKey.split('\n') : [],
      (id) => registry.get(id) !== undefined,
    );
    for (const { id, marker } of markers) canvas.addMarker(id, marker);
    return () => {
      for (const { id, marker } of markers) if (registry.get(id)) canvas.removeMarker(id, marker);
    };
  }, [viewer, imported, finishedKey, activeKey]);

  // Fitted again when the container's size changes (a dialog resized, the sidebar folded).
  useEffect(() => {
    const element = host.current;
    if (!viewer || !element || typeof ResizeObserver === 'undefined') return;
    let frame = 0;
    const observer = new ResizeObserver(() => {
      cancelAnimationFrame(frame);
      frame = requestAnimationFrame(() => {
        if (element.clientWidth === 0 || element.clientHeight === 0) return;
        const canvas = viewer.get<Canvas>('canvas');
        canvas.resized();
        fitDiagram(canvas);
      });
    });
    observer.observe(element);
    return () => {
      cancelAnimationFrame(frame);
      observer.disconnect();
    };
  }, [viewer]);

  const zoom = (by: number | 'fit') => {
    if (!viewer || status.kind !== 'ready') return;
    const canvas = viewer.get<Canvas>('canvas');
    if (by === 'fit') fitDiagram(canvas);
    else canvas.zoom(canvas.zoom() * by);
  };

  return (
    <div className={`vg-flow-diagram${className ? ` ${className}` : ''}`} style={{ height }}>
      <div ref={host} className="vg-flow-diagram-canvas" aria-label={t`流程图`} role="img" />
      {status.kind === 'ready' && (
        <ButtonGroup className="vg-flow-diagram-zoom" variant="outlined">
          {/* Text, not icons: src/ui/icons.ts bundles a curated set without the zoom icons. */}
          <Button text="+" aria-label={t`放大`} title={t`放大`} onClick={() => zoom(1.2)} />
          <Button text="−" aria-label={t`缩小`} title={t`缩小`} onClick={() => zoom(1 / 1.2)} />
          <Button icon="fullscreen" aria-label={t`适应窗口`} title={t`适应窗口`} onClick={() => zoom('fit')} />
        </ButtonGroup>
      )}
      {status.kind === 'loading' && (
        <div className="vg-flow-diagram-overlay">
          <Spinner size={24} />
        </div>
      )}
      {status.kind === 'failed' && (
        <div className="vg-flow-diagram-overlay">
          <NonIdealState icon="error" title={t`流程图无法显示`} description={status.message} />
        </div>
      )}
    </div>
  );
}
