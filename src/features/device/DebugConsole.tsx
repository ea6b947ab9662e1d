import { Button, Callout, HTMLTable, NonIdealState, Spinner, Tag } from '@blueprintjs/core';
import { useLingui } from '@lingui/react/macro';
import { useEffect, useMemo, useState } from 'react';
import { io } from 'socket.io-client';
import { useSearch } from 'wouter';
import { formatDateTime } from '../../../resources/datetime';
import { formatReading, formatValue } from '../../../resources/readings';
import { type DebugKind, type DebugMessage, type DebugState, debugEvents, initialDebugState, reduceDebug, socketTransport } from '../../../streams/debug';
import { inUserLanguage } from '../../app/i18n';
import { navigate } from '../../app/navigation';
import { tokenCookies } from '../../app/storage';
import { type DebugSnapshot, type DeviceState, debugSnapshot, type PointState } from './api';
import { TargetPicker } from './TargetPicker';
import './device.css';

export const DEBUG_PATHS: Record<DebugKind, string> = { device: '/xinde/device/debug', gateway: '/xinde/gateway/debug' };
export const HISTORY_PATH = '/xinde/device/history';

/** The live debug console of a device or a gateway (`?id=`): latest values, online state, every message as it arrives. */
export function DebugConsole({ kind }: { kind: DebugKind }) {
  const id = new URLSearchParams(useSearch()).get('id') ?? '';
  return <div className="vg-page">{id ? <DebugView key={`${kind}:${id}`} kind={kind} id={id} /> : <TargetPicker kind={kind} path={DEBUG_PATHS[kind]} />}</div>;
}

function DebugView({ kind, id }: { kind: DebugKind; id: string }) {
  const { t } = useLingui();
  const [snapshot, setSnapshot] = useState<DebugSnapshot>();
  const [failure, setFailure] = useState<string>();
  const [state, setState] = useState<DebugState>(() => initialDebugState());

  useEffect(() => {
    let closed = false;
    let stop = () => {};
    debugSnapshot(kind, id).then(
      (snap) => {
        if (closed) return;
        setSnapshot(snap);
        setState(initialDebugState(snap.messages, snap.target.online));
        // Same origin as the console; the token is read again on every reconnect (it is refreshed meanwhile).
        const socket = io(snap.websocket.namespace === '/' ? '' : snap.websocket.namespace, {
          path: snap.websocket.path,
          transports: snap.websocket.transports,
          auth: (send) => send({ token: tokenCookies.access() ?? '' }),
        });
        const subscription = debugEvents(socketTransport(socket), { kind, id }, snap.serverTime).subscribe((events) => setState((s) => reduceDebug(s, events)));
        stop = () => {
          subscription.unsubscribe();
          socket.close();
        };
      },
      (error: unknown) => !closed && setFailure(error instanceof Error ? error.message : String(error)),
    );
    return () => {
      closed = true;
      stop();
    };
  }, [kind, id]);

  const devices = useMemo(() => (snapshot ? withLiveValues(snapshot.devices, state.messages) : []), [snapshot, state.messages]);
  const points = useMemo(() => pointsOf(devices), [devices]);

  if (failure) return <NonIdealState icon="error" title={failure} />;
  if (!snapshot) return <Spinner size={24} />;
  const staleSince = state.staleSince === undefined ? undefined : formatClock(state.staleSince);
  return (
    <div className={`vg-debug-live${staleSince ? ' is-stale' : ''}`}>
      <div className="vg-debug-head">
        <h3>
          {snapshot.target.name} <small>{snapshot.target.code}</small>
        </h3>
        {staleSince ? (
          <Tag className="vg-debug-online" minimal>{t`状态未知`}</Tag>
        ) : (
          <Tag className="vg-debug-online" intent={state.online ? 'success' : 'none'}>
            {state.online ? t`在线` : t`离线`}
          </Tag>
        )}
        <Tag className="vg-debug-connection" intent={state.connected ? 'primary' : 'warning'} minimal>
          {state.connected ? t`实时连接已建立` : t`正在连接…`}
        </Tag>
        {state.replayed > 0 && <Tag minimal>{t`断线期间补发 ${state.replayed} 条`}</Tag>}
        {state.refused && <Tag intent="danger">{inUserLanguage(state.refused)}</Tag>}
        {kind === 'device' && (
          <Button icon="timeline-line-chart" variant="minimal" onClick={() => navigate(`${HISTORY_PATH}?id=${id}`)}>
            {t`历史曲线`}
          </Button>
        )}
      </div>
      {staleSince && (
        <Callout className="vg-debug-stale" intent="warning" icon="offline">
          {t`与服务器的连接已断开,以下是 ${staleSince} 时的数据;重新连接后自动补发断线期间的消息。`}
        </Callout>
      )}
      {devices.map((device) => (
        <LatestValues key={device.id} device={device} showName={kind === 'gateway'} />
      ))}
      <h4>{t`最近消息`}</h4>
      {state.messages.length === 0 ? (
        <p className="vg-debug-empty">{t`还没有收到消息`}</p>
      ) : (
        <div className="vg-debug-messages">
          {state.messages.map((message) => (
            <MessageCard key={message.id} message={message} points={points} />
          ))}
        </div>
      )}
    </div>
  );
}

/** `HH:mm:ss` of a moment today (the stale banner). */
const formatClock = (ms: number): string => formatDateTime(new Date(ms)).slice(11);

/** The snapshot's values, overtaken by newer ones from the messages that arrived since. */
function withLiveValues(devices: readonly DeviceState[], messages: readonly DebugMessage[]): DeviceState[] {
  return devices.map((device) => {
    const points = device.points.map((p) => ({ ...p }));
    const newest = new Map<string, number>(points.map((p) => [p.pointKey, p.time ? Date.parse(p.time.replace(' ', 'T')) : -Infinity]));
    for (const message of messages) {
      for (const reading of message.readings) {
        if (reading.deviceId !== device.id) continue;
        for (const [pointKey, { raw, value }] of Object.entries(reading.values)) {
          let point = points.find((p) => p.pointKey === pointKey);
          if (!point) {
            point = { pointKey, name: pointKey, unit: null, precision: null, value: null, raw: null, time: null };
            points.push(point);
          }
          if (reading.ts >= (newest.get(pointKey) ?? -Infinity)) {
            newest.set(pointKey, reading.ts);
            Object.assign(point, { value, raw, time: formatTime(reading.ts) });
          }
        }
      }
    }
    return { ...device, points };
  });
}

const formatTime = (ms: number): string => formatDateTime(new Date(ms));

function LatestValues({ device, showName }: { device: DeviceState; showName: boolean }) {
  const { t } = useLingui();
  return (
    <div className="vg-debug-values">
      {showName && (
        <h4>
          {device.name} <small>{device.code}</small>
        </h4>
      )}
      <HTMLTable compact striped>
        <thead>
          <tr>
            <th>{t`点位`}</th>
            <th>{t`计算值`}</th>
            <th>{t`原始值`}</th>
            <th>{t`时间`}</th>
          </tr>
        </thead>
        <tbody>
          {device.points.map((p) => (
            <tr key={p.pointKey} className="vg-debug-point" data-key={p.pointKey}>
              <td>
                {p.name} <small>{p.pointKey}</small>
              </td>
              <td className="vg-debug-value">{formatReading(p.value, p.precision, p.unit)}</td>
              <td>{formatValue(p.raw)}</td>
              <td>{p.time ?? '—'}</td>
            </tr>
          ))}
        </tbody>
      </HTMLTable>
    </div>
  );
}

/** `deviceId|pointKey` -> the point, so the messages show values as the table does. */
const pointsOf = (devices: readonly DeviceState[]): ReadonlyMap<string, PointState> => new Map(devices.flatMap((d) => d.points.map((p) => [`${d.id}|${p.pointKey}`, p] as const)));

function MessageCard({ message, points }: { message: DebugMessage; points: ReadonlyMap<string, PointState> }) {
  return (
    <article className={`vg-debug-message${message.error ? ' has-error' : ''}`}>
      <header>
        <span>{message.receivedTime}</span>
        <span>{message.topic}</span>
      </header>
      {message.readings.map((reading) => (
        <div key={`${reading.deviceId}:${reading.ts}`} className="vg-debug-values-line">
          <strong>{reading.code}</strong>
          <span>{formatTime(reading.ts)}</span>
          {Object.entries(reading.values).map(([key, v]) => {
            const point = points.get(`${reading.deviceId}|${key}`);
            return (
              <span key={key} className="vg-debug-reading">
                {key}: {formatValue(v.raw)} → {formatReading(v.value, point?.precision, point?.unit)}
              </span>
            );
          })}
        </div>
      ))}
      {message.error && <div className="vg-debug-error">{message.error}</div>}
      <pre>{message.payload}</pre>
    </article>
  );
}

export default function DeviceDebugPage() {
  return <DebugConsole kind="device" />;
}
