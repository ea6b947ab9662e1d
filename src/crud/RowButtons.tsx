import { Button, ButtonGroup, type IconName, type Intent } from '@blueprintjs/core';

/** One button of a row's actions (view, edit, delete and the view's own). */
export interface RowButton {
  key: string;
  text: string;
  icon: IconName;
  intent?: Intent;
  run(): void;
}

/** More buttons than this show as icons (their text as tooltip and accessible name) so the pinned column stays narrow. */
const TEXT_BUTTONS = 3;

export const isCompact = (count: number): boolean => count > TEXT_BUTTONS;

/** The action column's width for a row of `count` buttons. */
export const actionsWidthOf = (count: number): number => Math.max(64, isCompact(count) ? 16 + 30 * count : 24 + 84 * count);

/** A row's buttons: text buttons in the table (icons when many) and in the narrow screens' cards. */
export function RowButtons({ buttons, compact }: { buttons: readonly RowButton[]; compact: boolean }) {
  return (
    <ButtonGroup variant="minimal">
      {buttons.map((b) => (
        <Button
          key={b.key}
          size="small"
          icon={b.icon}
          intent={b.intent}
          text={compact ? undefined : b.text}
          title={compact ? b.text : undefined}
          aria-label={compact ? b.text : undefined}
          className={`vg-action-${b.key}`}
          onClick={b.run}
        />
      ))}
    </ButtonGroup>
  );
}
