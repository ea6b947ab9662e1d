import { playAlarmTone } from '../../ui/alarmTone';

/** The bell's alarm beep; silent where audio is unavailable or not yet allowed. */
let context: AudioContext | undefined;

export function playAlarmSound(): void {
  try {
    context ??= new AudioContext();
    void context.resume().catch(() => undefined);
    playAlarmTone(context);
  } catch {
    // No WebAudio (or blocked): the badge still tells.
  }
}
