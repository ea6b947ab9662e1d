import { Button, Callout, Dialog, DialogBody, DialogFooter, FileInput, FormGroup, HTMLSelect, NonIdealState, ProgressBar, Spinner } from '@blueprintjs/core';
import { useLingui } from '@lingui/react/macro';
import { useEffect, useRef, useState } from 'react';
import { putFile } from '../../api/resource';
import type { Row } from '../../crud/api';
import { confirm } from '../../ui/confirm';
import { toastSuccess } from '../../ui/toast';
import { monitorPoints, type Placement, saveLayout } from './api';
import { dropPosition, fractionOf } from './placement';

interface EditedPoint extends Placement {
  name: string;
}

/** A point being dragged, and where the pointer is (for the label that follows it). */
interface Drag {
  id: string;
  clientX: number;
  clientY: number;
}

/**
 * Drags points with the pointer: a drop on the image places the point there, a drop anywhere else takes it off the
 * image. Listens on the window while a drag lasts, so the pointer may leave the element it started on.
 */
function useDrag(image: React.RefObject<HTMLImageElement | null>, place: (id: string, at: { x: number; y: number } | undefined) => void) {
  const [drag, setDrag] = useState<Drag>();
  useEffect(() => {
    if (!drag) return;
    const move = (e: PointerEvent) => setDrag((d) => d && { ...d, clientX: e.clientX, clientY: e.clientY });
    const drop = (e: PointerEvent) => {
      const rect = image.current?.getBoundingClientRect();
      place(drag.id, rect ? dropPosition(e.clientX, e.clientY, rect) : undefined);
      setDrag(undefined);
    };
    window.addEventListener('pointermove', move);
    window.addEventListener('pointerup', drop);
    return () => {
      window.removeEventListener('pointermove', move);
      window.removeEventListener('pointerup', drop);
    };
  }, [drag?.id]);
  const start = (id: string) => (e: React.PointerEvent) => {
    e.preventDefault();
    setDrag({ id, clientX: e.clientX, clientY: e.clientY });
  };
  return { drag, start };
}

function ProjectLayout({ project, onSaved, onChanged }: { project: Row; onSaved(): void; onChanged(changed: boolean): void }) {
  const { t } = useLingui();
  const [image, setImage] = useState<string | null>(project.screenImage ? String(project.screenImage) : null);
  const [points, setPoints] = useState<EditedPoint[]>();
  const [uploading, setUploading] = useState<number>();
  const [saving, setSaving] = useState(false);
  const picture = useRef<HTMLImageElement>(null);

  useEffect(() => {
    void monitorPoints(project.id).then(
      (rows) => setPoints(rows.map((r) => ({ id: r.id, name: String(r.name ?? r.id), x: fractionOf(r.screenX), y: fractionOf(r.screenY) }))),
      () => setPoints([]),
    );
  }, [project.id]);

  const edit = (next: EditedPoint[] | undefined, nextImage = image) => {
    setPoints(next);
    setImage(nextImage);
    onChanged(true);
  };
  const { drag, start } = useDrag(picture, (id, at) => edit(points?.map((p) => (p.id === id ? { ...p, x: at?.x ?? null, y: at?.y ?? null } : p))));

  async function upload(file: File | undefined) {
    if (!file) return;
    setUploading(0);
    try {
      const { link } = await putFile(file, (sent, total) => setUploading(total ? sent / total : undefined));
      edit(points, link);
    } catch {
      // the request layer has shown the failure
    } finally {
      setUploading(undefined);
    }
  }

  async function save() {
    if (!points) return;
    setSaving(true);
    try {
      await saveLayout(project.id, image, points.map(({ id, x, y }) => ({ id, x, y })));
      toastSuccess(t`保存成功`);
      onChanged(false);
      onSaved();
    } catch {
      // the request layer has shown the refusal
    } finally {
      setSaving(false);
    }
  }

  if (!points) return <Spinner size={24} />;
  const loose = points.filter((p) => p.x === null || p.y === null);
  return (
    <div className="vg-layout-editor">
      <div className="vg-layout-toolbar">
        <FileInput
          text={uploading !== undefined ? t`上传中…` : image ? t`更换底图` : t`上传底图`}
          buttonText={t`浏览`}
          disabled={uploading !== undefined}
          inputProps={{ accept: 'image/png,image/jpeg,image/gif,image/webp,image/bmp', className: 'vg-layout-upload' }}
          onInputChange={(e) => void upload((e.target as HTMLInputElement).files?.[0])}
        />
        {image && <Button icon="trash" text={t`移除底图`} className="vg-layout-remove-image" onClick={() => edit(points.map((p) => ({ ...p, x: null, y: null })), null)} />}
        <span className="vg-spacer" />
        <Button intent="primary" icon="tick-circle" text={t`保存布局`} loading={saving} className="vg-layout-save" onClick={() => void save()} />
      </div>
      {uploading !== undefined && <ProgressBar intent="primary" value={uploading} />}
      <div className="vg-layout-body">
        <div className="vg-layout-canvas">
          {image ? (
            <div className="vg-layout-image">
              <img ref={picture} src={image} alt="" draggable={false} />
              {points
                .filter((p) => p.x !== null && p.y !== null)
                .map((p) => (
                  <span key={p.id} className={`vg-layout-marker${drag?.id === p.id ? ' is-dragging' : ''}`} data-point={p.id}
                    style={{ left: `${(p.x ?? 0) * 100}%`, top: `${(p.y ?? 0) * 100}%` }} onPointerDown={start(p.id)} title={p.name}>
                    {p.name}
                  </span>
                ))}
            </div>
          ) : (
            <NonIdealState icon="map-marker" description={t`先上传项目的结构图，再把监测点拖到图上的位置。没有底图时大屏以网格显示测点。`} />
          )}
        </div>
        <div className="vg-layout-list">
          <div className="vg-layout-list-title">{t`未放置的监测点 (${loose.length})`}</div>
          {points.length === 0 && <Callout>{t`该项目还没有监测点`}</Callout>}
          {loose.map((p) => (
            <div key={p.id} className="vg-layout-item" data-point={p.id} onPointerDown={image ? start(p.id) : undefined}>
              {p.name}
            </div>
          ))}
          {image && <div className="vg-layout-hint">{t`拖到图上放置；把图上的点拖到图外即取消放置。`}</div>}
        </div>
      </div>
      {drag && (
        <span className="vg-layout-ghost" style={{ left: drag.clientX, top: drag.clientY }}>
          {points.find((p) => p.id === drag.id)?.name}
        </span>
      )}
    </div>
  );
}

/** 布局: per project, its structure image and where its monitor points sit on it (the wall screen's structure panel). */
export function LayoutEditor({ projects, onClose, onSaved }: { projects: readonly Row[]; onClose(): void; onSaved(): void }) {
  const { t } = useLingui();
  const [projectId, setProjectId] = useState(projects[0]?.id);
  const changed = useRef(false);
  const project = projects.find((p) => p.id === projectId);
  const choose = async (id: string) => {
    if (changed.current && !(await confirm(t`当前项目的布局尚未保存，确定切换?`))) return;
    changed.current = false;
    setProjectId(id);
  };
  return (
    <Dialog isOpen title={t`大屏布局`} onClose={onClose} style={{ width: 1100, maxWidth: '96vw' }} className="vg-layout-dialog" canOutsideClickClose={false}>
      <DialogBody>
        <FormGroup label={t`项目`} labelFor="layout-project" inline>
          <HTMLSelect id="layout-project" value={projectId ?? ''} onChange={(e) => void choose(e.target.value)} options={projects.map((p) => ({ value: p.id, label: String(p.name) }))} />
        </FormGroup>
        {project ? (
          <ProjectLayout key={project.id} project={project} onSaved={onSaved} onChanged={(value) => (changed.current = value)} />
        ) : (
          <NonIdealState icon="projects" description={t`没有可布局的项目`} />
        )}
      </DialogBody>
      <DialogFooter actions={<Button text={t`关闭`} onClick={onClose} />} />
    </Dialog>
  );
}
