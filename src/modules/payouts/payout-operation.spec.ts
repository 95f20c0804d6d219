// Unit spec of the payout service's pure helpers: masking and the mapping of provider refusals to user errors.

import { describe, expect, it } from 'vitest';
import { maskIdentifier, userErrorsOf } from './payout-operation.js';

describe('maskIdentifier', () => {
  it('keeps the last four characters behind a fixed-width mask', () => {
    expect(maskIdentifier('002180000118359710')).toBe('****9710');
    expect(maskIdentifier('12345')).toBe('****2345');
  });

  it('never cuts a character made of two UTF-16 units in half', () => {
    expect(maskIdentifier('12345😀🈚𼂴é')).toBe('****😀🈚𼂴é');
    expect(maskIdentifier('😀😀😀😀')).toBe('****');
  });

  it('hides short values entirely', () => {
    expect(maskIdentifier('1234')).toBe('****');
    expect(maskIdentifier('12')).toBe('****');
  });
});

describe('userErrorsOf', () => {
  it('turns the provider\'s missing array into one FIELD_REQUIRED per field path', () => {
    const errors = userErrorsOf({
      code: 'BENEFICIARY_FIELDS_MISSING',
      message: 'The provider needs more beneficiary details',
      missing: [['beneficiary', 'bankCode'], ['beneficiary', 'cci']],
      httpStatus: 422,
      outcomeUnknown: false,
    });
    expect(errors).toEqual([
      { field: ['beneficiary', 'bankCode'], code: 'FIELD_REQUIRED', message: 'beneficiary.bankCode is required by the provider for this country' },
      { field: ['beneficiary', 'cci'], code: 'FIELD_REQUIRED', message: 'beneficiary.cci is required by the provider for this country' },
    ]);
  });

  it('keeps any other refusal as one error with the provider error code', () => {
    expect(userErrorsOf({ code: 'PAYOUTS_NOT_ENABLED', message: 'Live payouts are not enabled', httpStatus: 503, outcomeUnknown: false })).toEqual([
      { field: [], code: 'PAYOUTS_NOT_ENABLED', message: 'Live payouts are not enabled' },
    ]);
  });
});
