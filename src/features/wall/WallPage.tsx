import { useSelector } from '@xstate/react';
import { Component, Fragment, type ReactNode, useEffect, useState } from 'react';
import { useWallScale, useWallState } from './wallHooks';
import { WallMessage } from './WallMessage';
import { startWall, type WallRuntime } from './wallRuntime';
import { phaseOf, WallScreen } from './WallScreen';
import './wall.css';

/** The display link's secret: the page's fragment (`/wall#<secret>`), which browsers never send to the server. */
function useSecret(): string {
  const read = () => decodeURIComponent(window.location.hash.replace(/^#/, '')).trim();
  const [secret, setSecret] = useState(read);
  useEffect(() => {
    const changed = () => setSecret(read());
    window.addEventListener('hashchange', changed);
    return () => window.removeEventListener('hashchange', changed);
  }, []);
  return secret;
}

/** How long a screen that threw waits before it draws itself again. */
const RECOVER_MS = 30_000;

/**
 * A screen that throws (a bug meeting unexpected data) says so and draws itself again after RECOVER_MS, with a fresh
 * runtime: nobody is there to press a retry button.
 */
class WallBoundary extends Component<{ children: ReactNode }, { failed: boolean; round: number }> {
  override state = { failed: false, round: 0 };
  private timer: ReturnType<typeof setTimeout> | undefined;

  static getDerivedStateFromError() {
    return { failed: true };
  }

  override componentDidCatch() {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.setState((s) => ({ failed: false, round: s.round + 1 })), RECOVER_MS);
  }

  override componentWillUnmount() {
    clearTimeout(this.timer);
  }

  override render() {
    return this.state.failed ? <WallMessage kind="broken" /> : <Fragment key={this.state.round}>{this.props.children}</Fragment>;
  }
}

function WallView({ runtime, scale }: { runtime: WallRuntime; scale: number }) {
  const state = useWallState(runtime);
  const phase = useSelector(runtime.actor, (s) => phaseOf(s.value));
  const refusal = useSelector(runtime.actor, (s) => s.context.refusal);
  const name = state.data?.link.name;
  useEffect(() => {
    if (!name) return;
    // A task of its own: setting the title took 35 ms on a screen of 20,000 channels, not to be added to a frame.
    const timer = setTimeout(() => {
      document.title = name;
    });
    return () => clearTimeout(timer);
  }, [name]);
  // A refused link's message stays while it is checked again.
  const refused = phase === 'revoked' || phase === 'invalid' || (phase === 'rechecking' && refusal !== undefined);
  if (refused) return <WallMessage kind={refusal ?? 'invalid'} detail={runtime.client.lastRefusal()} />;
  if (!state.data) return <WallMessage kind="connecting" />;
  return <WallScreen runtime={runtime} state={{ ...state, data: state.data }} scale={scale} />;
}

function Wall({ secret, scale }: { secret: string; scale: number }) {
  const [runtime, setRuntime] = useState<WallRuntime>();
  useEffect(() => {
    const started = startWall(secret);
    setRuntime(started);
    // Browsers let audio start only after a gesture: the first click or key press anywhere unlocks it.
    const unlock = () => started.sound.unlock();
    window.addEventListener('pointerdown', unlock);
    window.addEventListener('keydown', unlock);
    return () => {
      window.removeEventListener('pointerdown', unlock);
      window.removeEventListener('keydown', unlock);
      started.stop();
    };
  }, [secret]);
  return runtime ? <WallView runtime={runtime} scale={scale} /> : null;
}

/** Full screen on a double click (a browser allows it only after a gesture). */
function toggleFullscreen() {
  if (document.fullscreenElement) void document.exitFullscreen().catch(() => undefined);
  else void document.documentElement.requestFullscreen?.().catch(() => undefined);
}

/**
 * /wall#<secret>: the wall screen of a display link (docs/console-screens.md "The wall screen") — outside the
 * console's shell, without sign-in, dark, scaled to the window.
 */
export default function WallPage() {
  const secret = useSecret();
  const scale = useWallScale();
  useEffect(() => {
    document.body.classList.add('vg-wall-body-page', 'bp6-dark');
    return () => document.body.classList.remove('vg-wall-body-page', 'bp6-dark');
  }, []);
  return (
    // The type is sized for 1920×1080 at 18 px and scales with the window (format.ts wallScale).
    <div className="vg-wall" style={{ fontSize: `${18 * scale}px` }} onDoubleClick={toggleFullscreen}>
      {secret ? (
        <WallBoundary key={secret}>
          <Wall secret={secret} scale={scale} />
        </WallBoundary>
      ) : (
        <WallMessage kind="missing" />
      )}
    </div>
  );
}
