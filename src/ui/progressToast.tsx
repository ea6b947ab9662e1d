import { ProgressBar } from '@blueprintjs/core';
import { toasterOf } from './toast';

export interface ProgressToast {
  /** `fraction` of 0..1, or undefined while it cannot be told (the server working). */
  update(text: string, fraction?: number): void;
  close(): void;
}

/** A toast that stays while a long task runs (an upload), with its bar and a line of text; one per task. */
export function progressToast(key: string): ProgressToast {
  const show = (text: string, fraction?: number) =>
    void toasterOf().then((t) =>
      t.show(
        {
          message: (
            <span className="vg-progress-toast">
              <span>{text}</span>
              <ProgressBar intent="primary" value={fraction} stripes={fraction === undefined} />
            </span>
          ),
          intent: 'none',
          timeout: 0,
          isCloseButtonShown: false,
        },
        key,
      ),
    );
  return { update: show, close: () => void toasterOf().then((t) => t.dismiss(key)) };
}
