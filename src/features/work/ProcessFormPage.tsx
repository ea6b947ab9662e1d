import { NonIdealState, Spinner } from '@blueprintjs/core';
import { useLingui } from '@lingui/react/macro';
import { useEffect, useState } from 'react';
import type { FlowDiagram } from '../../../resources/wire/flow';
import { definitionDiagram } from '../flow/flowApi';
import { ProcessDiagram } from '../flow/ProcessDiagram';
import { GeneralForm } from './GeneralForm';
import { LeaveFormView } from './LeaveFormView';
import { GENERAL_ROUTE } from './processRoutes';
import { useProcessRoute } from './processPage';
import './work.css';

/** The forms the console has, by route value (processRoutes.ts PROCESS_BUSINESSES marks them). */
const FORMS: Readonly<Record<string, typeof LeaveFormView>> = { leave: LeaveFormView, [GENERAL_ROUTE]: GeneralForm };

/** /work/process/<route>/form/:processDefinitionId: the business's form, and the process it starts below it. */
export default function ProcessFormPage() {
  const { t } = useLingui();
  const route = useProcessRoute();
  if (route?.page !== 'form') return null;
  const Form = FORMS[route.business];
  return (
    <div className="vg-page vg-process">
      <section className="vg-process-section">
        <h3>{route.business === 'leave' ? t`请假申请` : t`发起流程`}</h3>
        {Form ? <Form processDefinitionId={route.processDefinitionId} /> : <NonIdealState icon="error" title={t`该流程没有表单`} />}
      </section>
      <DefinitionSection processDefinitionId={route.processDefinitionId} />
    </div>
  );
}

/** The diagram of the definition the form starts (process/diagram?processDefinitionId=). */
function DefinitionSection({ processDefinitionId }: { processDefinitionId: string }) {
  const { t } = useLingui();
  const [diagram, setDiagram] = useState<FlowDiagram>();
  const [problem, setProblem] = useState<string>();
  useEffect(() => {
    let live = true;
    definitionDiagram(processDefinitionId).then(
      (found) => live && setDiagram(found),
      (error: unknown) => live && setProblem(error instanceof Error ? error.message : String(error)),
    );
    return () => {
      live = false;
    };
  }, [processDefinitionId]);
  return (
    <section className="vg-process-section vg-process-diagram">
      <h3>{t`流程图`}</h3>
      {diagram ? <ProcessDiagram xml={diagram.xml} height={360} /> : problem ? <NonIdealState icon="error" title={t`流程图加载失败`} description={problem} /> : <Spinner size={20} />}
    </section>
  );
}
