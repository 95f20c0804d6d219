import { describe, expect, it } from 'vitest';
import type { MerchantAccount } from '../../providers/provider.js';
import { ORDER_TOKEN_LIFETIME_MS, signOrderToken, verifyOrderToken } from './card-form.token.js';

const account: MerchantAccount = { code: 'dg-test', provider: 'deposit-gateway', livemode: false, baseUrl: 'http://127.0.0.1:1/v1', apiKey: 'svc_test_x', webhookSecrets: ['whsec_current_secret'] };
const accounts = (list: MerchantAccount[]) => (code: string) => list.find((candidate) => candidate.code === code);
const now = Date.UTC(2026, 10, 24);

describe('card form order token', () => {
  it('verifies what it signed, and names the deposit and account', () => {
    const token = signOrderToken(account, 'dep_1', now);
    expect(token).not.toContain('dep_1');
    expect(verifyOrderToken(token, accounts([account]), now)).toEqual({ ok: true, depositId: 'dep_1', accountCode: 'dg-test' });
  });

  it('still verifies after the webhook secret is rotated, while the old one is listed', () => {
    const token = signOrderToken(account, 'dep_1', now);
    const rotated = { ...account, webhookSecrets: ['whsec_new_secret_x', 'whsec_current_secret'] };
    expect(verifyOrderToken(token, accounts([rotated]), now)).toMatchObject({ ok: true });
    expect(verifyOrderToken(token, accounts([{ ...account, webhookSecrets: ['whsec_new_secret_x'] }]), now)).toEqual({ ok: false, reason: 'BAD_SIGNATURE' });
  });

  it('refuses a changed payload, a changed signature, another key, an unknown account, garbage and an expired token', () => {
    const [version, payload, signature] = signOrderToken(account, 'dep_1', now).split('.') as [string, string, string];
    const otherPayload = signOrderToken(account, 'dep_2', now).split('.')[1];
    const flipped = `${signature.slice(0, -1)}${signature.endsWith('A') ? 'B' : 'A'}`;
    const check = (token: string, at = now) => verifyOrderToken(token, accounts([account]), at);
    expect(check(`${version}.${otherPayload}.${signature}`)).toEqual({ ok: false, reason: 'BAD_SIGNATURE' });
    expect(check(`${version}.${payload}.${flipped}`)).toEqual({ ok: false, reason: 'BAD_SIGNATURE' });
    expect(check(signOrderToken({ ...account, webhookSecrets: ['whsec_someone_else'] }, 'dep_1', now))).toEqual({ ok: false, reason: 'BAD_SIGNATURE' });
    expect(verifyOrderToken(signOrderToken(account, 'dep_1', now), accounts([]), now)).toEqual({ ok: false, reason: 'UNKNOWN_ACCOUNT' });
    for (const garbage of ['', 'dep_1', 'v1..', `v2.${payload}.${signature}`, `v1.${payload}`, `v1.!!!.${signature}`]) expect(check(garbage)).toEqual({ ok: false, reason: 'MALFORMED' });
    expect(check(`${version}.${payload}.${signature}`, now + ORDER_TOKEN_LIFETIME_MS + 1000)).toEqual({ ok: false, reason: 'EXPIRED' });
  });
});
