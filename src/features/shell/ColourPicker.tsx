import { Button, PopoverNext } from '@blueprintjs/core';
import { useLingui } from '@lingui/react/macro';
import { useSelector } from '@xstate/react';
import { preferencesActor } from '../../app/shell';

const PRESETS = ['#409EFF', '#1890ff', '#304156', '#212121', '#11a983', '#13c2c2', '#6959CD', '#f5222d', '#fa541c', '#faad14', '#2f54eb', '#722ed1'];

/** The primary colour: presets or any colour. */
export function ColourPicker() {
  const { t } = useLingui();
  const colour = useSelector(preferencesActor, (s) => s.context.colour);
  const pick = (value: string) => preferencesActor.send({ type: 'prefs.colour', colour: value });
  const content = (
    <div>
      <div className="vg-swatches">
        {PRESETS.map((preset) => (
          <span key={preset} className="vg-swatch" style={{ background: preset }} title={preset} onClick={() => pick(preset)} />
        ))}
      </div>
      <div style={{ padding: '0 10px 10px' }}>
        <input type="color" aria-label={t`自定义颜色`} value={colour} onChange={(e) => pick(e.target.value)} />
      </div>
    </div>
  );
  return (
    <PopoverNext content={content} placement="bottom">
      <Button variant="minimal" icon="tint" aria-label={t`主题色`} title={t`主题色`} style={{ color: colour }} />
    </PopoverNext>
  );
}
