import { Button, NonIdealState, Tree, type TreeNodeInfo } from '@blueprintjs/core';
import { useLingui } from '@lingui/react/macro';
import { useEffect, useState } from 'react';
import { type Envelope, http } from '../../api/client';

/** A node of GET device/lazy-list: a project, a group or a device. */
interface LevelNode {
  id: string;
  title: string;
  nodeType: 'project' | 'group' | 'device';
  projectId?: string;
  hasChildren?: boolean;
}

/** What the tree selects: a project or a group (the list filters by it). */
export interface TreePlace {
  projectId?: string;
  groupId?: string;
}

const level = (parentId?: string) =>
  http
    .get<Envelope<LevelNode[]>>('api/wit-xinde/device/lazy-list', { searchParams: parentId ? { parentId, isLoadDev: 1 } : { isLoadDev: 1 } })
    .then((r) => r.data ?? []);

const ICONS = { project: 'folder-close', group: 'box', device: 'mobile-phone' } as const;

/** The project tree beside the device list: projects, their groups and devices, one level per expand. */
export function DeviceTree({ value, onChange }: { value: TreePlace; onChange(place: TreePlace): void }) {
  const { t } = useLingui();
  const [roots, setRoots] = useState<LevelNode[]>();
  const [children, setChildren] = useState<ReadonlyMap<string, LevelNode[]>>(new Map());
  const [open, setOpen] = useState<ReadonlySet<string>>(new Set());

  useEffect(() => {
    void level().then(setRoots, () => setRoots([]));
  }, []);

  async function expand(node: LevelNode) {
    if (!children.has(node.id)) {
      const rows = await level(node.id).catch(() => undefined);
      if (!rows) return;
      setChildren((prev) => new Map(prev).set(node.id, rows));
    }
    setOpen((prev) => new Set(prev).add(node.id));
  }
  const collapse = (id: string) => setOpen((prev) => new Set([...prev].filter((x) => x !== id)));
  const selectedId = value.groupId ?? value.projectId;

  const build = (nodes: readonly LevelNode[]): TreeNodeInfo<LevelNode>[] =>
    nodes.map((n) => ({
      id: n.id,
      nodeData: n,
      label: n.title,
      icon: ICONS[n.nodeType],
      className: `vg-device-tree-node vg-device-tree-${n.nodeType}`,
      isSelected: n.nodeType !== 'device' && n.id === selectedId,
      isExpanded: open.has(n.id),
      hasCaret: n.nodeType !== 'device' && n.hasChildren !== false,
      childNodes: children.has(n.id) ? build(children.get(n.id) ?? []) : undefined,
    }));

  function click(node: LevelNode) {
    if (node.nodeType === 'device') return;
    if (node.id === selectedId) return onChange({});
    onChange(node.nodeType === 'project' ? { projectId: node.id } : { projectId: node.projectId, groupId: node.id });
  }

  return (
    <div className="vg-device-tree">
      <Button fill variant="minimal" alignText="start" icon="office" text={t`全部项目`} active={!selectedId} className="vg-device-tree-all" onClick={() => onChange({})} />
      {roots?.length === 0 ? (
        <NonIdealState description={t`暂无数据`} />
      ) : (
        <Tree
          contents={build(roots ?? [])}
          onNodeClick={(n) => n.nodeData && click(n.nodeData)}
          onNodeExpand={(n) => n.nodeData && void expand(n.nodeData)}
          onNodeCollapse={(n) => collapse(String(n.id))}
        />
      )}
    </div>
  );
}
