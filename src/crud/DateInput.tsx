import { Button, InputGroup } from '@blueprintjs/core';
import { useLingui } from '@lingui/react/macro';
import { useRef } from 'react';

interface Props {
  id: string;
  kind: 'date' | 'datetime';
  /** yyyy-MM-dd, or yyyy-MM-dd HH:mm:ss, or what is being typed. */
  value: string;
  disabled?: boolean;
  invalid?: boolean;
  onChange(text: string): void;
  onBlur(): void;
}

export const DATE_PATTERN = 'yyyy-MM-dd';
export const DATETIME_PATTERN = 'yyyy-MM-dd HH:mm:ss';

/** The browser picker's value (yyyy-MM-ddTHH:mm[:ss]) as the contract writes it. */
const fromPicker = (kind: Props['kind'], text: string) => {
  if (kind === 'date') return text;
  const spaced = text.replace('T', ' ');
  return /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}$/.test(spaced) ? `${spaced}:00` : spaced;
};

/**
 * A date typed as the spec writes it (yyyy-MM-dd, whatever the browser's locale: a native date input shows
 * mm/dd/yyyy in an English browser), with the browser's calendar behind a button for picking.
 */
export function DateInput({ id, kind, value, disabled, invalid, onChange, onBlur }: Props) {
  const { t } = useLingui();
  const picker = useRef<HTMLInputElement>(null);
  const open = () => {
    const input = picker.current;
    if (!input) return;
    input.value = kind === 'date' ? value.slice(0, 10) : value.replace(' ', 'T');
    input.showPicker?.();
  };
  const calendar = (
    <span className="vg-date-picker">
      <input ref={picker} type={kind === 'date' ? 'date' : 'datetime-local'} step={kind === 'datetime' ? 1 : undefined} tabIndex={-1} aria-hidden
        onChange={(e) => {
          onChange(fromPicker(kind, e.target.value));
          onBlur();
        }} />
      <Button variant="minimal" icon="calendar" disabled={disabled} title={t`选择日期`} className="vg-date-pick" onClick={open} />
    </span>
  );
  return (
    <InputGroup id={id} value={value} disabled={disabled} intent={invalid ? 'danger' : 'none'} placeholder={kind === 'date' ? DATE_PATTERN : DATETIME_PATTERN}
      autoComplete="off" rightElement={calendar} onChange={(e) => onChange(e.target.value)} onBlur={onBlur} />
  );
}
