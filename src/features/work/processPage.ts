import { useLocation } from 'wouter';
import { navigate } from '../../app/navigation';
import { tabsActor } from '../../app/shell';
import { parseProcessPath, type ProcessRoute } from './processRoutes';

/** The process page the address names (the router sends only such addresses here). */
export function useProcessRoute(): ProcessRoute | undefined {
  const [path] = useLocation();
  return parseProcessPath(path);
}

/** Leaves a process page for a list: the list's tab opens, the page's own tab closes (its work is done). */
export function leaveFor(list: string): void {
  const here = `${window.location.pathname}${window.location.search}`;
  // Closing the page's (active) tab goes to its neighbour; the list is then where the user lands.
  tabsActor.send({ type: 'tabs.close', value: here });
  navigate(list);
}
