/**
 * The alarm's two-tone beep through Web Audio (no asset to ship), `rounds` times in a row: the console's bell plays
 * it once, the wall screen three times (a room away, once is easily missed).
 */
export function playAlarmTone(audio: AudioContext, rounds = 1): void {
  const start = audio.currentTime;
  for (let round = 0; round < rounds; round += 1) {
    [880, 660].forEach((frequency, i) => {
      const oscillator = audio.createOscillator();
      const gain = audio.createGain();
      oscillator.type = 'sine';
      oscillator.frequency.value = frequency;
      const at = start + round * 0.5 + i * 0.18;
      gain.gain.setValueAtTime(0.0001, at);
      gain.gain.exponentialRampToValueAtTime(0.3, at + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, at + 0.16);
      oscillator.connect(gain).connect(audio.destination);
      oscillator.start(at);
      oscillator.stop(at + 0.17);
    });
  }
}
