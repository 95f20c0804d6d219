// Unit spec of the payout service's pure helpers: the mapping of provider refusals to user errors.

import { describe, expect, it } from 'vitest';
import { userErrorsOf } from './payout-operation.js';

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
