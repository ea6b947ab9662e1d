import { describe, expect, it } from 'vitest';
import type { Reference } from '../../resources/define';
import { withReferences } from '../crud/references';
import type { CrudView } from '../crud/types';
import { alarmView, recipientView, sendLogView, strategyView, thresholdView } from './alarm/alarmViews';
import { deviceModelView, devicePointView, deviceTypeView, modelAgreementView, protocolModbusView, temperatureCoefficientView } from './catalogue/catalogueViews';
import { collectDataView, collectStrategyView, comparisonView, deviceLogView, updateLogView } from './data/dataViews';
import { deviceView, gatewayStateView, gatewayView } from './device/deviceViews';
import { bindings, factorsItems, monitorFactorsView, monitorItemView, monitorPointView } from './monitoring/monitoringViews';
import { categoryView, projectView, userProjectView } from './project/projectViews';
import { apiSendLogView, mappingView, mqttParamView, tenantProjectView } from './push/pushViews';
import { thirdProjectView } from './third/thirdViews';

/** The screens naming rows of other resources, as their declared references make them. */

const none = () => undefined;
const parent = { id: '1', projectId: '7', name: '' };
const VIEWS: Record<string, CrudView> = {
  alarmView: alarmView(none),
  thresholdView,
  recipientView,
  strategyView,
  sendLogView,
  deviceTypeView,
  deviceModelView,
  protocolModbusView,
  modelAgreementView,
  temperatureCoefficientView,
  devicePointView,
  deviceLogView,
  updateLogView,
  collectDataView,
  collectStrategyView,
  comparisonView,
  deviceView: deviceView({}, { command: none, initialValues: none }),
  gatewayView: gatewayView(none),
  gatewayStateView,
  monitorFactorsView,
  factorsItems: factorsItems(String).view(parent),
  monitorPointView,
  bindings: bindings(String).view(parent),
  monitorItemView,
  projectView,
  categoryView,
  userProjectView,
  mqttParamView: mqttParamView(none),
  mappingView,
  tenantProjectView: tenantProjectView(none),
  apiSendLogView,
  thirdProjectView,
} as unknown as Record<string, CrudView>;

const referencesOf = (view: CrudView): Record<string, Reference | undefined> => view.resource.references ?? {};

describe.each(Object.entries(VIEWS))('%s', (_name, view) => {
  const resolved = withReferences(view);

  it('picks every reference it edits or searches in a tree', () => {
    const edited = resolved.fields.filter((f) => referencesOf(view)[f.name] && (f.hideInForm !== true || f.search));
    for (const field of edited) expect(field.widget?.type, field.name).toBe('tree');
  });

  it('shows each reference by name, never in a second hand-written column', () => {
    const names = new Set(Object.values(referencesOf(view)).map((r) => r?.as));
    const derivedNames = view.fields.filter((f) => 'derived' in f && names.has(f.name)).map((f) => f.name);
    expect(derivedNames).toEqual([]);
    for (const field of resolved.fields.filter((f) => !f.hideInTable && referencesOf(view)[f.name]?.as)) {
      const as = referencesOf(view)[field.name]?.as ?? '';
      expect(field.cell?.({ id: '1', [field.name]: '42', [as]: '名称' }), field.name).toBe('名称');
    }
  });
});
