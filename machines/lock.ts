import { assign, setup } from 'xstate';

export interface LockContext {
  password: string;
  /** The last unlock attempt used a wrong password. */
  wrongPassword: boolean;
}

export interface LockInput {
  locked?: boolean;
  password?: string;
}

export type LockEvent =
  | { type: 'lock.set'; password: string }
  | { type: 'lock.unlock'; password: string }
  | { type: 'lock.clear' };

export const LOCK_NAVIGATION_DELAY = 100;

/** Tag of the state in which the guard sends every navigation to /lock: only after the navigation delay. */
export const SCREEN_LOCKED = 'screenLocked';

/**
 * The screen lock: setting a password locks the screen and navigates to /lock after 100 ms; the same password
 * unlocks it. Clearing (logout, a new login) resets the flag and the password; the session is untouched.
 */
export const lockMachine = setup({
  types: { context: {} as LockContext, events: {} as LockEvent, input: {} as LockInput, tags: {} as typeof SCREEN_LOCKED },
  actions: {
    /** Writes the lock flag and password to storage; app-provided. */
    persist: () => {},
    goToLock: () => {},
    /** Back to the page of the current tab; app-provided. */
    leaveLock: () => {},
  },
  guards: {
    hasPassword: (_, password: string) => password.length > 0,
    matches: ({ context }, password: string) => password === context.password,
    restoredLocked: ({ context }) => context.password.length > 0,
  },
  delays: { navigation: LOCK_NAVIGATION_DELAY },
}).createMachine({
  id: 'lock',
  context: ({ input }) => ({ password: input.locked ? (input.password ?? '') : '', wrongPassword: false }),
  initial: 'restoring',
  states: {
    restoring: { always: [{ guard: 'restoredLocked', target: 'locked.shown' }, { target: 'unlocked' }] },
    unlocked: {
      on: {
        'lock.set': {
          guard: { type: 'hasPassword', params: ({ event }) => event.password },
          target: 'locked',
          actions: [assign({ password: ({ event }) => event.password, wrongPassword: false }), 'persist'],
        },
      },
    },
    locked: {
      initial: 'navigating',
      states: {
        navigating: { after: { navigation: { target: 'shown', actions: 'goToLock' } } },
        // The guard reads this tag, so its redirect and goToLock both wait for the machine's delay.
        shown: { tags: [SCREEN_LOCKED] },
      },
      on: {
        'lock.unlock': [
          {
            guard: { type: 'matches', params: ({ event }) => event.password },
            target: 'unlocked',
            actions: [assign({ password: '', wrongPassword: false }), 'persist', 'leaveLock'],
          },
          { actions: assign({ wrongPassword: true }) },
        ],
      },
    },
  },
  on: {
    'lock.clear': { target: '.unlocked', actions: [assign({ password: '', wrongPassword: false }), 'persist'] },
  },
});
