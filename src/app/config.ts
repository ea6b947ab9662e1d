/** Site configuration (spec §3 "Site configuration", §9 defaults). */
export const site = {
  /** Prefix of every stored item. */
  key: 'vigil',
  clientId: 'saber',
  clientSecret: 'saber_secret',
  tenantMode: true,
  tenantId: '000000',
  captchaMode: false,
  switchMode: false,
  tokenHeader: 'Blade-Auth',
  /** Seconds after the token's datetime when the check refreshes it. */
  tokenTime: 3000,
  homePath: '/wel/index',
  lockPage: '/lock',
  /** Spec §9: the default logo (also the default avatar). */
  logo: '/img/bg/logo.jpg',
  /** Request codes rejected silently. */
  statusWhiteList: [] as number[],
} as const;
