/** The numbers of the sign-in abuse rules (docs/sign-in.md). */
export interface SignInRules {
  /** Sign-in calls (password, captcha and social grants) per source address per minute. */
  perAddress: number;
  /** Sign-in calls per tenant and account per minute that do not carry a right captcha. */
  perAccount: number;
  /** Failed passwords for an account, from any address, after which its sign-in needs a captcha. */
  captchaAfter: number;
  /** Failed passwords for an account from one address after which that address is locked out of it. */
  lockAfter: number;
  /** How long such a lock lasts. */
  lockMs: number;
  /** Failures older than this are forgotten. */
  failureWindowMs: number;
}

export const SIGN_INS_PER_ADDRESS_PER_MINUTE = 20;
export const SIGN_INS_PER_ACCOUNT_PER_MINUTE = 10;
export const FAILURES_BEFORE_CAPTCHA = 3;
export const FAILURES_BEFORE_LOCK = 5;
export const LOCK_MS = 30 * 60 * 1000;
export const FAILURE_WINDOW_MS = 30 * 60 * 1000;
export const THROTTLE_WINDOW_MS = 60 * 1000;

export const DEFAULT_SIGN_IN_RULES: SignInRules = {
  perAddress: SIGN_INS_PER_ADDRESS_PER_MINUTE,
  perAccount: SIGN_INS_PER_ACCOUNT_PER_MINUTE,
  captchaAfter: FAILURES_BEFORE_CAPTCHA,
  lockAfter: FAILURES_BEFORE_LOCK,
  lockMs: LOCK_MS,
  failureWindowMs: FAILURE_WINDOW_MS,
};

/** The numbers of a device's CONNECT rules on the embedded broker (docs/mqtt.md "Credentials"). */
export interface DeviceCredentialRules {
  /** Wrong passwords for one identity from one address, within `lockMs`, after which that address is locked out of it. */
  lockAfter: number;
  lockMs: number;
  /** How long a refusal waits before it is answered: a guesser pays in time what the check no longer costs in CPU. */
  refusalDelayMs: number;
  /** scrypt checks at once (identities without a verifier yet); the others wait, leaving the thread pool to sign-ins. */
  slowChecks: number;
}

export const DEVICE_CREDENTIAL_RULES: DeviceCredentialRules = { lockAfter: 10, lockMs: 10 * 60 * 1000, refusalDelayMs: 1000, slowChecks: 2 };
