import { Button, FileInput, FormGroup, InputGroup, Tab, Tabs } from '@blueprintjs/core';
import { useLingui } from '@lingui/react/macro';
import { type FormEvent, useEffect, useState } from 'react';
import { putFile } from '../../api/resource';
import { type Profile, updateInfo, updatePassword, userInfo } from '../../api/user';
import { site } from '../../app/config';
import { toast, toastSuccess } from '../../ui/toast';
import { avatarProblem, passwordProblem, phoneProblem } from './validation';

function PersonalInfo() {
  const { t, i18n } = useLingui();
  const [profile, setProfile] = useState<Profile>({});
  const [phoneError, setPhoneError] = useState<string>();
  const [busy, setBusy] = useState(false);
  useEffect(() => void userInfo().then((p) => setProfile(p ?? {}), () => undefined), []);
  const field = (name: keyof Profile) => ({
    value: profile[name] ?? '',
    onChange: (e: { target: { value: string } }) => setProfile((p) => ({ ...p, [name]: e.target.value })),
  });

  async function upload(file: File | undefined) {
    if (!file) return;
    const problem = avatarProblem(file, i18n);
    if (problem) return toast(problem);
    const result = await putFile(file).catch(() => undefined);
    if (result?.link) setProfile((p) => ({ ...p, avatar: result.link }));
  }

  async function save(event: FormEvent) {
    event.preventDefault();
    const problem = phoneProblem(profile.phone ?? '', i18n);
    setPhoneError(problem);
    if (problem) return;
    setBusy(true);
    try {
      await updateInfo({ id: profile.id, avatar: profile.avatar, realName: profile.realName, name: profile.name, phone: profile.phone, email: profile.email });
      toastSuccess(t`修改信息成功!`);
    } catch {
      // the request layer has shown the failure; the form stays as typed
    } finally {
      setBusy(false);
    }
  }

  return (
    <form onSubmit={(e) => void save(e)} style={{ maxWidth: 480 }}>
      <FormGroup label={t`头像`}>
        <img className="vg-avatar-preview" src={profile.avatar || site.logo} alt="" />
        <FileInput text={t`选择图片`} buttonText={t`浏览`} inputProps={{ accept: 'image/png,image/jpeg', name: 'avatar' }} onInputChange={(e) => void upload((e.target as HTMLInputElement).files?.[0])} />
      </FormGroup>
      <FormGroup label={t`姓名`} labelFor="realName">
        <InputGroup id="realName" {...field('realName')} />
      </FormGroup>
      <FormGroup label={t`用户名`} labelFor="name">
        <InputGroup id="name" {...field('name')} />
      </FormGroup>
      <FormGroup label={t`手机号`} labelFor="phone" helperText={phoneError} intent={phoneError ? 'danger' : 'none'}>
        <InputGroup id="phone" {...field('phone')} onBlur={() => setPhoneError(phoneProblem(profile.phone ?? '', i18n))} />
      </FormGroup>
      <FormGroup label={t`邮箱`} labelFor="email">
        <InputGroup id="email" type="email" {...field('email')} />
      </FormGroup>
      <Button type="submit" intent="primary" loading={busy} text={t`保存`} />
    </form>
  );
}

function ChangePassword() {
  const { t, i18n } = useLingui();
  const empty = { oldPassword: '', newPassword: '', newPassword1: '' };
  const [form, setForm] = useState(empty);
  const [errors, setErrors] = useState<Partial<Record<keyof typeof empty, string>>>({});
  const [busy, setBusy] = useState(false);
  const field = (name: keyof typeof empty) => ({
    type: 'password',
    value: form[name],
    onChange: (e: { target: { value: string } }) => setForm((f) => ({ ...f, [name]: e.target.value })),
  });

  async function save(event: FormEvent) {
    event.preventDefault();
    const next = {
      oldPassword: form.oldPassword ? undefined : t`请输入原密码`,
      newPassword: passwordProblem(form.newPassword, i18n),
      newPassword1: form.newPassword1 === form.newPassword ? undefined : t`两次密码输入不一致`,
    };
    setErrors(next);
    if (Object.values(next).some(Boolean)) return;
    setBusy(true);
    try {
      await updatePassword(form);
      toastSuccess(t`修改密码成功!`);
      setForm(empty);
    } catch {
      // shown by the request layer
    } finally {
      setBusy(false);
    }
  }

  const group = (name: keyof typeof empty, label: string) => (
    <FormGroup label={label} labelFor={name} helperText={errors[name]} intent={errors[name] ? 'danger' : 'none'}>
      <InputGroup id={name} name={name} {...field(name)} />
    </FormGroup>
  );
  return (
    <form onSubmit={(e) => void save(e)} style={{ maxWidth: 480 }}>
      {group('oldPassword', t`原密码`)}
      {group('newPassword', t`新密码`)}
      {group('newPassword1', t`确认密码`)}
      <Button type="submit" intent="primary" loading={busy} text={t`保存`} />
    </form>
  );
}

/** /info/index: personal info and change password. */
export default function ProfilePage() {
  const { t } = useLingui();
  return (
    <div className="vg-page">
      <Tabs id="profile" renderActiveTabPanelOnly>
        <Tab id="info" title={t`个人信息`} panel={<PersonalInfo />} />
        <Tab id="password" title={t`修改密码`} panel={<ChangePassword />} />
      </Tabs>
    </div>
  );
}
