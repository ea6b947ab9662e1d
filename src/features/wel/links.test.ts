import { describe, expect, it } from 'vitest';
import { alarmLink, alarmsLink, dataLink, dataSinceLink, devicesLink, gatewaysLink, heldOnly, projectsLink, silentDevicesLink } from './links';

const query = (href: string) => Object.fromEntries(new URL(href, 'http://console').searchParams);
const path = (href: string) => new URL(href, 'http://console').pathname;

describe('figure links', () => {
  it('leads device presence to the device list filtered as the figure counts', () => {
    expect(devicesLink('online')).toBe('/xinde/device?online=1');
    expect(devicesLink('offline')).toBe('/xinde/device?online=0');
    expect(devicesLink('never')).toBe('/xinde/device?lastSeen_null=1');
    expect(devicesLink(undefined)).toBe('/xinde/device');
  });

  it('keeps the scope: a project on its rows (the project list on itself), a tenant compared exactly', () => {
    expect(query(devicesLink('offline', { projectId: '7', tenantId: '100001' }))).toEqual({ online: '0', projectId: '7', tenantId_equal: '100001' });
    expect(query(projectsLink({ projectId: '7' }))).toEqual({ id: '7' });
    // The gateway list is a lazy tree: it takes the project and nothing else.
    expect(gatewaysLink({ projectId: '7', tenantId: '100001' })).toBe('/xinde/gateway?projectId=7');
  });

  it('leads alarm figures to the alarm list: by level and open, unhandled, raised within days, one alarm', () => {
    expect(query(alarmsLink({ level: 1, open: true }))).toEqual({ alarmLevel: '1', alarmState: '1' });
    expect(query(alarmsLink({ unhandled: true }))).toEqual({ alarmState: '1', handleState: '0' });
    expect(query(alarmsLink({ level: 3, raised: { from: '2026-03-01', to: '2026-03-01' } }, { projectId: '9' }))).toEqual({
      alarmLevel: '3',
      firstTime_datege: '2026-03-01',
      firstTime_datele: '2026-03-01',
      projectId: '9',
    });
    expect(alarmLink('42')).toBe('/xinde/alarm?id=42');
  });

  it('leads data figures to the device log over whole days, and devices silent for longest sorted by last report', () => {
    expect(query(dataLink({ from: '2026-03-01', to: '2026-03-02' }))).toEqual({ startTime: '2026-03-01 00:00:00', endTime: '2026-03-02 23:59:59' });
    expect(query(dataSinceLink('2026-03-05', { projectId: '1' }))).toEqual({ startTime: '2026-03-05 00:00:00', projectId: '1' });
    expect(query(silentDevicesLink())).toEqual({ online: '0', ascs: 'lastSeen' });
  });

  it('keeps a link only for a list the user holds, none until the menus are known', () => {
    const held = heldOnly(new Set(['/xinde/device']));
    expect(held(devicesLink('online'))).toBe('/xinde/device?online=1');
    expect(held(alarmsLink({ open: true }))).toBeUndefined();
    expect(heldOnly(undefined)(devicesLink('online'))).toBeUndefined();
    expect(path(alarmsLink({}))).toBe('/xinde/alarm');
  });
});
