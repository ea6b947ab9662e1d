import { playAlarmTone } from '../../ui/alarmTone';

/**
 * The wall screen's alarm sound. Browsers start an AudioContext suspended until the page has had a user gesture
 * (autoplay policy), and a wall screen may never be touched: the context is made at once, resumed by the first click
 * or key press anywhere (the screen shows a hint until then), and a kiosk browser started with
 * `--autoplay-policy=no-user-gesture-required` has it running from the start, without the hint.
 */

/** on: it plays; blocked: it waits for a gesture; unavailable: no Web Audio here (the flash still tells). */
export type SoundState = 'on' | 'blocked' | 'unavailable';

export interface AlarmSound {
  state(): SoundState;
  /** Told whenever the state changes. */
  subscribe(listener: () => void): () => void;
  /** Resumes the context; call it from a gesture's handler. */
  unlock(): void;
  play(): void;
  close(): void;
}

/** Beeps per alarm. */
const ROUNDS = 3;

export function createAlarmSound(): AlarmSound {
  let context: AudioContext | undefined;
  try {
    context = new AudioContext();
  } catch {
    context = undefined;
  }
  const listeners = new Set<() => void>();
  const tell = () => {
    for (const listener of listeners) listener();
  };
  if (context) context.onstatechange = tell;
  return {
    state: () => (!context ? 'unavailable' : context.state === 'running' ? 'on' : 'blocked'),
    subscribe: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    unlock: () => {
      void context?.resume().then(tell, () => undefined);
    },
    play: () => {
      if (context?.state === 'running') playAlarmTone(context, ROUNDS);
    },
    close: () => {
      listeners.clear();
      void context?.close().catch(() => undefined);
    },
  };
}
