import { useSelector } from '@xstate/react';
import { sessionActor } from '../../app/shell';

const PLATFORM_TENANT = '000000';
const ADMINISTRATOR = 'administrator';

/** The platform administrator (role administrator of tenant 000000) deploys into any tenants; others into their own. */
export function usePlatformAdmin(): boolean {
  return useSelector(sessionActor, (s) => s.context.user?.tenantId === PLATFORM_TENANT && (s.context.user.roleName ?? '').split(',').includes(ADMINISTRATOR));
}
