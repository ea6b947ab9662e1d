import { http, type Envelope } from './client';

export interface Profile {
  id?: string;
  avatar?: string;
  realName?: string;
  name?: string;
  account?: string;
  phone?: string;
  email?: string;
}

export interface PasswordChange {
  oldPassword: string;
  newPassword: string;
  newPassword1: string;
}

export interface Registration {
  tenantId: string;
  name: string;
  account: string;
  password: string;
  oauthId: string;
}

export const userInfo = () => http.get<Envelope<Profile>>('api/blade-user/info').then((r) => r.data);

export const updateInfo = (profile: Profile) => http.post<Envelope<unknown>>('api/blade-user/update-info', { json: profile });

export const updatePassword = (change: PasswordChange) =>
  http.post<Envelope<unknown>>('api/blade-user/update-password', { searchParams: { ...change } });

export const registerGuest = (form: Registration) =>
  http.post<Envelope<unknown>>('api/blade-user/register-guest', { searchParams: { ...form } });
