/**
 * The BPMN designer's editor and its styles, one lazy chunk: only DesignerPage imports it, with `import()`, so
 * bpmn-js, the properties panel and Camunda's extensions never enter the login or shell bundle.
 */
import 'bpmn-js/dist/assets/diagram-js.css';
import 'bpmn-js/dist/assets/bpmn-js.css';
import 'bpmn-js/dist/assets/bpmn-font/css/bpmn.css';
import '@bpmn-io/properties-panel/dist/assets/properties-panel.css';
import Modeler from 'bpmn-js/lib/Modeler';
import { BpmnPropertiesPanelModule, BpmnPropertiesProviderModule, CamundaPlatformPropertiesProviderModule } from 'bpmn-js-properties-panel';
import CamundaPlatformBehaviorsModule from 'camunda-bpmn-js-behaviors/lib/camunda-platform';
import camunda from 'camunda-bpmn-moddle/resources/camunda.json';

export type { Modeler };

export interface ModelerOptions {
  container: HTMLElement;
  /** Where the properties panel is drawn. */
  panel: HTMLElement;
  /** Help under properties panel entries, by entry id (assignee, candidateGroups, conditionExpression…). */
  descriptions: Record<string, string>;
}

/**
 * A modeler whose user tasks take Camunda's assignee, candidate users and groups, form key and due date, and whose
 * sequence flows take condition expressions, in the properties panel beside the canvas.
 */
export function createModeler({ container, panel, descriptions }: ModelerOptions): Modeler {
  return new Modeler({
    container,
    propertiesPanel: {
      parent: panel,
      description: Object.fromEntries(Object.entries(descriptions).map(([id, text]) => [id, () => text])),
    },
    additionalModules: [BpmnPropertiesPanelModule, BpmnPropertiesProviderModule, CamundaPlatformPropertiesProviderModule, CamundaPlatformBehaviorsModule],
    moddleExtensions: { camunda },
  });
}
