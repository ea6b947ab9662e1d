import type { DeviceContext } from './directory';

/** What turning a raw value into an engineering value needs to know about its device. */
export type Calculation = Pick<DeviceContext, 'formulaOf' | 'initial' | 'compensation'>;

/**
 * Engineering value = formula(x, x0, T) + k × (T − T0) where the channel has a temperature coefficient and T is
 * known (docs/ingest.md "Calculate"). The one calculation of the pipeline and of `device/recalculate`.
 */
export function engineeringValue(device: Calculation, pointKey: string, x: number, temperature: number): number {
  let value = device.formulaOf(pointKey)({ x, x0: device.initial[pointKey] ?? 0, T: temperature });
  const compensation = device.compensation.get(pointKey);
  if (compensation && Number.isFinite(temperature)) value += compensation.k * (temperature - compensation.t0);
  return value;
}
