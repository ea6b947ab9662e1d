import { NonIdealState, Spinner } from '@blueprintjs/core';
import { useLingui } from '@lingui/react/macro';
import { useEffect, useState } from 'react';
import type { FlowDiagram, FlowHistoryStep } from '../../../resources/wire/flow';
import { ProcessDiagram } from '../flow/ProcessDiagram';
import { historySteps, instanceDiagram } from './api';
import { HistoryTimeline } from './HistoryTimeline';

/**
 * Below a process page's business: the history timeline and the diagram with what ran in green and what waits in
 * orange. Read again whenever `version` changes (after the page acted on the task).
 */
export function ProcessTrack({ processInstanceId, version = 0 }: { processInstanceId: string; version?: number }) {
  const { t } = useLingui();
  const [steps, setSteps] = useState<FlowHistoryStep[]>();
  const [diagram, setDiagram] = useState<FlowDiagram>();
  const [problem, setProblem] = useState<{ history?: string; diagram?: string }>({});

  useEffect(() => {
    let live = true;
    historySteps(processInstanceId).then(
      (found) => live && setSteps(found),
      (error: unknown) => {
        if (!live) return;
        setSteps([]);
        setProblem((p) => ({ ...p, history: String((error as Error).message ?? error) }));
      },
    );
    instanceDiagram(processInstanceId).then(
      (found) => live && setDiagram(found),
      (error: unknown) => live && setProblem((p) => ({ ...p, diagram: String((error as Error).message ?? error) })),
    );
    return () => {
      live = false;
    };
  }, [processInstanceId, version]);

  return (
    <>
      <section className="vg-process-section vg-process-history">
        <h3>{t`流转记录`}</h3>
        {problem.history ? <NonIdealState icon="error" title={t`流转记录加载失败`} description={problem.history} /> : <HistoryTimeline steps={steps} />}
      </section>
      <section className="vg-process-section vg-process-diagram">
        <h3>{t`流程图`}</h3>
        {diagram ? (
          <ProcessDiagram xml={diagram.xml} finished={diagram.finished} active={diagram.active} height={420} />
        ) : problem.diagram ? (
          <NonIdealState icon="error" title={t`流程图加载失败`} description={problem.diagram} />
        ) : (
          <Spinner size={20} />
        )}
      </section>
    </>
  );
}
