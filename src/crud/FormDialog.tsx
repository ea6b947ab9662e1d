import { Button, Dialog, DialogBody, DialogFooter, FormGroup } from '@blueprintjs/core';
import { useLingui } from '@lingui/react/macro';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import type { z } from 'zod';
import type { Resource } from '../../resources/define';
import { RequestError } from '../api/http';
import { logFailure } from '../app/errors';
import { toast, toastSuccess } from '../ui/toast';
import type { CrudCalls, Row } from './api';
import { isEmpty } from './query';
import type { CrudView, FieldView, FormMode } from './types';
import { fieldProblem, formProblems, isRequired, refusalProblems, wireValue } from './validation';
import { FieldInput, widgetOf } from './widgets';

export interface FormRequest {
  mode: FormMode;
  row?: Row;
  /** Values of a new row beyond the fields' own initial values (a child's parentId and code). */
  initial?: Record<string, unknown>;
}

interface Props<R extends Resource> {
  view: CrudView<R>;
  calls: CrudCalls;
  request: FormRequest;
  onClose(): void;
  /** The row the server answered the save with (a display link's one-time secret is in it). */
  onSaved(saved: Row): void;
}

const hiddenIn = (field: FieldView, mode: FormMode) => (typeof field.hideInForm === 'function' ? field.hideInForm(mode) : !!field.hideInForm);
/** The fields the form shows in this mode for these values. */
const formFields = <R extends Resource>(view: CrudView<R>, mode: FormMode, values: Record<string, unknown>): FieldView[] =>
  view.fields.filter((f) => !hiddenIn(f, mode) && (!f.visibleWhen || f.visibleWhen(values)));
/** A blank field that keeps its stored value in this mode (a password on edit). */
const keptBlank = (field: FieldView, mode: FormMode, value: unknown) => !!field.keepIfBlank?.(mode) && isEmpty(value);
const spanOf = (field: FieldView) => field.span ?? (['textarea', 'richText', 'upload', 'tree', 'pre'].includes(widgetOf(field).type) ? 24 : 12);

function initialValues<R extends Resource>(view: CrudView<R>, request: FormRequest): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (const field of view.fields.filter((f) => !hiddenIn(f, request.mode))) if (field.initial !== undefined) values[field.name] = field.initial;
  return { ...values, ...request.initial };
}

/**
 * What the form sends: numbers as numbers, multi-selects comma-joined; an emptied optional field is sent as null
 * where the resource accepts null (so an edit clears it), else left out.
 */
function bodyOf<R extends Resource>(view: CrudView<R>, mode: FormMode, values: Record<string, unknown>): Record<string, unknown> {
  const body: Record<string, unknown> = { ...view.submitDefaults, ...values };
  const shape = view.resource.fields.shape as Record<string, z.ZodType | undefined>;
  for (const field of formFields(view, mode, values)) {
    const value = values[field.name];
    if (keptBlank(field, mode, value)) delete body[field.name];
    else if (isEmpty(value)) body[field.name] = field.required ? value : shape[field.name]?.safeParse(null).success ? null : undefined;
    else if (field.wire) body[field.name] = field.wire(value);
    else if (widgetOf(field).type === 'number') body[field.name] = Number(value);
    else if (Array.isArray(value)) body[field.name] = value.join(',');
    else body[field.name] = wireValue(field, value);
  }
  return body;
}

/** The fields a change of `field` empties (its `clears`), when the value really changed. */
const clearedBy = (field: FieldView, before: unknown, after: unknown): Record<string, unknown> =>
  field.clears && String(before ?? '') !== String(after ?? '') ? Object.fromEntries(field.clears.map((name) => [name, undefined])) : {};

const formOf = <R extends Resource>(view: CrudView<R>, row: Row): Record<string, unknown> => (view.toForm ? view.toForm(row) : { ...row });

/** The add / edit / view dialog of a list page. */
export function FormDialog<R extends Resource>({ view, calls, request, onClose, onSaved }: Props<R>) {
  const { t, i18n } = useLingui();
  const { mode } = request;
  const [values, setStoredValues] = useState<Record<string, unknown>>(() => (request.row ? formOf(view, request.row) : initialValues(view, request)));
  // Blur can follow a change in the same event (switch, upload): checks read the latest values, not the render's.
  const latest = useRef(values);
  const setValues = (next: Record<string, unknown>) => {
    latest.current = next;
    setStoredValues(next);
  };
  const [problems, setProblems] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);

  // Edit and view show the stored row (detail), not the possibly abridged list row.
  useEffect(() => {
    if (mode === 'add' || !request.row) return;
    const key = view.detailBy ?? 'id';
    void calls.detail(String(request.row[key] ?? ''), key).then((row) => row && setValues(formOf(view, row)), () => undefined);
  }, [mode, request.row, calls, view.detailBy]);

  const disabledOf = (field: FieldView) => mode === 'view' || (typeof field.disabled === 'function' ? field.disabled(mode) : !!field.disabled);
  const check = (field: FieldView, value = latest.current[field.name]) =>
    setProblems((p) => ({ ...p, [field.name]: keptBlank(field, mode, value) ? '' : (fieldProblem(view.resource, field, value, i18n) ?? '') }));

  async function save(event: FormEvent) {
    event.preventDefault();
    const editable = formFields(view, mode, latest.current).filter((f) => !disabledOf(f) && !keptBlank(f, mode, latest.current[f.name]));
    const found = formProblems(view.resource, editable, latest.current, i18n);
    setProblems(found);
    if (Object.keys(found).length) return;
    setBusy(true);
    try {
      const body = bodyOf(view, mode, latest.current);
      const saved = await calls.submit(view.toBody ? view.toBody(body) : body, true);
      toastSuccess(mode === 'add' ? t`新增成功` : t`更新成功`);
      onSaved(saved);
    } catch (error) {
      // A refusal naming fields is shown at them, any other one as a toast; the form stays as typed.
      if (error instanceof RequestError && error.code === 400) refused(error.message);
      logFailure(error, 'submit');
      setBusy(false);
    }
  }

  function refused(message: string) {
    const found = refusalProblems(message, formFields(view, mode, latest.current), i18n);
    if (Object.keys(found).length) setProblems((p) => ({ ...p, ...found }));
    else toast(message);
  }

  const title = mode === 'add' ? t`新增` : mode === 'edit' ? t`编辑` : t`查看`;
  const width = view.dialogWidth ?? 600;
  return (
    <Dialog isOpen title={title} onClose={onClose} style={{ width, maxWidth: '95vw' }} canOutsideClickClose={false}>
      <form onSubmit={(e) => void save(e)} className="vg-crud-form" noValidate>
        <DialogBody>
          <div className="vg-form-grid">
            {formFields(view, mode, values).map((field) => {
              const id = `field-${field.name}`;
              const problem = problems[field.name];
              return (
                <FormGroup key={field.name} label={i18n._(field.label)} labelFor={id} labelInfo={mode !== 'view' && isRequired(view.resource, field) ? <span className="vg-required">*</span> : undefined}
                  intent={problem ? 'danger' : 'none'} helperText={problem || (field.help && mode !== 'view' ? i18n._(field.help) : undefined)}
                  className={`${spanOf(field) === 24 ? 'vg-span-24' : 'vg-span-12'}${problem ? ' vg-field-invalid' : ''}`}>
                  <FieldInput id={id} field={field} value={values[field.name]} disabled={disabledOf(field)} editing={request.row} values={values} invalid={!!problem}
                    onChange={(value) => {
                      setValues({ ...latest.current, ...clearedBy(field, latest.current[field.name], value), [field.name]: value });
                      if (problem) check(field, value);
                    }}
                    onBlur={() => mode !== 'view' && !disabledOf(field) && check(field)} />
                </FormGroup>
              );
            })}
          </div>
        </DialogBody>
        <DialogFooter
          actions={
            mode === 'view' ? (
              <Button text={t`关闭`} onClick={onClose} />
            ) : (
              <>
                <Button text={t`取消`} onClick={onClose} />
                <Button type="submit" intent="primary" loading={busy} text={t`保存`} />
              </>
            )
          }
        />
      </form>
    </Dialog>
  );
}
