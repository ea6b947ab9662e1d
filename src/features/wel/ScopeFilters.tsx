import { HTMLSelect } from '@blueprintjs/core';
import { useLingui } from '@lingui/react/macro';
import { useSelector } from '@xstate/react';
import { useEffect, useState } from 'react';
import { project } from '../../../resources/iot/project';
import { type Envelope, http } from '../../api/client';
import { sessionActor } from '../../app/shell';
import { type Row, treeOf, type TreeOption } from '../../crud/api';
import { pickerSource } from '../../crud/references';

/** The platform administrator: role administrator of the platform tenant, who sees every tenant's rows. */
const PLATFORM_TENANT = '000000';
const ADMINISTRATOR = 'administrator';

export function usePlatformAdmin(): boolean {
  return useSelector(sessionActor, (s) => s.context.user?.tenantId === PLATFORM_TENANT && (s.context.user.roleName ?? '').split(',').includes(ADMINISTRATOR));
}

/** A tree as one list, children indented under their parent. */
const flatten = (nodes: readonly TreeOption[], depth = 0): Array<{ value: string; label: string }> =>
  nodes.flatMap((node) => [{ value: node.id, label: `${'\u3000'.repeat(depth)}${node.title}` }, ...flatten(node.children ?? [], depth + 1)]);

function useOptions(load: () => Promise<TreeOption[]>, enabled = true): Array<{ value: string; label: string }> {
  const [options, setOptions] = useState<Array<{ value: string; label: string }>>([]);
  useEffect(() => {
    if (!enabled) return;
    let current = true;
    load().then(
      (nodes) => current && setOptions(flatten(nodes)),
      () => current && setOptions([]),
    );
    return () => {
      current = false;
    };
  }, [enabled]);
  return options;
}

const PROJECTS = pickerSource(project) ?? 'api/wit-xinde/project/select';

/** Every tenant, named with its id (the platform administrator's list). */
async function tenants(): Promise<TreeOption[]> {
  const { data } = await http.get<Envelope<{ records: Row[] }>>('api/blade-system/tenant/list', { searchParams: { current: 1, size: 1000 } });
  return (data?.records ?? []).map((row) => ({ id: String(row.tenantId), title: `${String(row.tenantName)} (${String(row.tenantId)})` }));
}

/** The projects the user sees (their scope), or all of them. */
export function ProjectFilter({ value, onChange }: { value?: string; onChange(projectId: string | undefined): void }) {
  const { t } = useLingui();
  const options = useOptions(() => treeOf(PROJECTS));
  return (
    <HTMLSelect className="vg-scope-project" aria-label={t`项目`} value={value ?? ''} onChange={(e) => onChange(e.target.value || undefined)}
      options={[{ value: '', label: t`全部项目` }, ...options]} />
  );
}

/** The platform administrator's tenant filter (every tenant by default); nobody else is offered it. */
export function TenantFilter({ value, onChange }: { value?: string; onChange(tenantId: string | undefined): void }) {
  const { t } = useLingui();
  const admin = usePlatformAdmin();
  const options = useOptions(tenants, admin);
  if (!admin) return null;
  return (
    <HTMLSelect className="vg-scope-tenant" aria-label={t`租户`} value={value ?? ''} onChange={(e) => onChange(e.target.value || undefined)}
      options={[{ value: '', label: t`全部租户` }, ...options]} />
  );
}
