/** A short two-tone beep through WebAudio (no asset to ship); silent where audio is unavailable or not yet allowed. */
let context: AudioContext | undefined;

export function playAlarmSound(): void {
  try {
    context ??= new AudioContext();
    const audio = context;
    void audio.resume().catch(() => undefined);
    const start = audio.currentTime;
    [880, 660].forEach((frequency, i) => {
      const oscillator = audio.createOscillator();
      const gain = audio.createGain();
      oscillator.type = 'sine';
      oscillator.frequency.value = frequency;
      const at = start + i * 0.18;
      gain.gain.setValueAtTime(0.0001, at);
      gain.gain.exponentialRampToValueAtTime(0.3, at + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, at + 0.16);
      oscillator.connect(gain).connect(audio.destination);
      oscillator.start(at);
      oscillator.stop(at + 0.17);
    });
  } catch {
    // No WebAudio (or blocked): the badge still tells.
  }
}
