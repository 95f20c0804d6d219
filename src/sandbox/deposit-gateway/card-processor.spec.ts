import { describe, expect, it } from 'vitest';
import { Money } from '../../lib/money.js';
import { readCard } from './card-processor.js';

const now = new Date(Date.UTC(2026, 10, 24));
const eur = (amount: string) => Money.fromDecimal(amount, 'EUR');
const read = (fields: Record<string, string>, amount = '10.00', brands = ['VISA', 'MASTER']) =>
  readCard(new URLSearchParams({ card_number: '4242 4242 4242 4242', card_expiry: '12/30', card_cvv: '123', ...fields }), eur(amount), brands, now);

describe('sandbox card processor', () => {
  it('keeps only the masked card and approves by the test-mode rule', () => {
    expect(read({})).toEqual({ ok: true, authorization: { outcome: 'approved', declineReason: null, statusReason: null, card: { bin: '424242', last4: '4242', scheme: 'VISA' } } });
    expect(read({ card_number: '5555555555554444' })).toMatchObject({ ok: true, authorization: { card: { scheme: 'MASTER', last4: '4444' } } });
    expect(read({}, '10.13')).toMatchObject({ ok: true, authorization: { outcome: 'declined', declineReason: 'declined' } });
  });

  it('declines an expired card with expired_card; the card is good to the end of its month', () => {
    expect(read({ card_expiry: '10/26' })).toMatchObject({ authorization: { outcome: 'declined', declineReason: 'expired_card' } });
    expect(read({ card_expiry: '11/26' })).toMatchObject({ authorization: { outcome: 'approved' } });
  });

  it.each([
    [{ card_number: '4242 4242 4242 4241' }, 'valid card number'],
    [{ card_number: '4242' }, 'valid card number'],
    [{ card_expiry: '13/30' }, 'MM/YY'],
    [{ card_cvv: '12' }, '3-digit'],
    [{ card_number: '378282246310005', card_cvv: '123' }, 'not accepted'],
  ])('asks again for %j', (fields, message) => {
    const reading = read(fields);
    expect(reading.ok).toBe(false);
    if (!reading.ok) expect(reading.error).toContain(message);
  });

  it('an AMEX card takes a 4-digit code where AMEX is boarded', () => {
    expect(read({ card_number: '378282246310005', card_cvv: '1234' }, '10.00', ['AMEX'])).toMatchObject({ ok: true, authorization: { card: { scheme: 'AMEX' } } });
  });
});
