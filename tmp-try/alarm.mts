import { signedIn } from '/work/wt-work-console/tests/support/client';
const api = await signedIn('http://127.0.0.1:18091', 'admin', 'admin', '100001');
const devices = await api.get<{ records: Array<{ id: string; code: string }> }>('/api/wit-xinde/device/list', { size: 1 });
console.log(JSON.stringify(devices.body).slice(0,300));
const r = await api.post('/api/wit-xinde/alarm/submit', { deviceId: devices.body.data.records[0].id, alarmLevel: 1, title: '测试红色告警', content: '人工录入的红色告警' });
console.log(JSON.stringify(r.body).slice(0, 300));
await new Promise((res) => setTimeout(res, 2000));
const claim = await api.get<{ records: unknown[] }>('/api/blade-flow/work/claim-list', {});
console.log(JSON.stringify(claim.body.data.records[0]).slice(0, 600));
