import type { Platform } from '../platform';
import type { Realtime } from '../realtime';
import { AlarmEngine } from './engine';
import { Notifier } from './notifier';
import { RuleBook } from './rules';

/** The alarm side of the platform (docs/alarms.md): the rule cache, the engine behind `readings`, the notifier. */
export interface Alarms {
  rules: RuleBook;
  engine: AlarmEngine;
  notifier: Notifier;
  /** Resolves when every reading enqueued so far is judged and every due notification tried. */
  idle(): Promise<void>;
  stop(): Promise<void>;
}

export async function startAlarms(platform: Platform, realtime: Realtime): Promise<Alarms> {
  const rules = new RuleBook(platform);
  const notifier = new Notifier(platform, realtime);
  const engine = new AlarmEngine(platform, rules, notifier);
  const onReadings = engine.enqueue.bind(engine);
  platform.events.on('readings', onReadings);
  await notifier.start();
  return {
    rules,
    engine,
    notifier,
    idle: async () => {
      await engine.idle();
      await notifier.idle();
    },
    stop: async () => {
      platform.events.off('readings', onReadings);
      await engine.idle();
      await notifier.stop();
    },
  };
}
