/** bpmn-js-properties-panel 6 and camunda-bpmn-js-behaviors ship no types: their modules as the designer uses them. */
declare module 'bpmn-js-properties-panel' {
  import type { ModuleDeclaration } from 'didi';

  export const BpmnPropertiesPanelModule: ModuleDeclaration;
  export const BpmnPropertiesProviderModule: ModuleDeclaration;
  export const CamundaPlatformPropertiesProviderModule: ModuleDeclaration;
}

declare module 'camunda-bpmn-js-behaviors/lib/camunda-platform' {
  import type { ModuleDeclaration } from 'didi';

  const CamundaPlatformBehaviorsModule: ModuleDeclaration;
  export default CamundaPlatformBehaviorsModule;
}
