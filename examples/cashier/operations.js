// Generated from client/generated (npm run codegen) by test/examples/cashier-operations.test.ts:
// the example cashier's typed operations, printed. Do not edit; regenerate with
//   npx vitest run test/examples/cashier-operations.test.ts -u

export const CardSession = `query CardSession($depositId: ID!) {
  cardSession(depositId: $depositId) {
    depositId
    settled
    status
    amount {
      amount
      currency
    }
    scriptUrl
    brands
    formAction
  }
}`;

export const CashierContext = `query CashierContext {
  viewer {
    id
    name
    roles
    merchantAccounts
  }
  merchantAccounts {
    code
    provider
    livemode
    rails
  }
}`;

export const ClaimDepositCredit = `mutation ClaimDepositCredit($input: ClaimDepositCreditInput!) {
  claimDepositCredit(input: $input) {
    claim {
      claimedAt
      firstClaim
    }
    userErrors {
      field
      code
      message
    }
  }
}`;

export const CreateDeposit = `mutation CreateDeposit($input: CreateDepositInput!) {
  createDeposit(input: $input) {
    deposit {
      ...CashierDeposit
    }
    userErrors {
      field
      code
      message
    }
  }
}

fragment CashierDeposit on Deposit {
  id
  status
  rail
  amount {
    amount
    currency
  }
  fee {
    amount
    currency
  }
  net {
    amount
    currency
  }
  redirectUrl
  declineReason
  merchantReference
  qrCode {
    payload
    svg
    expiresAt
  }
  crypto {
    quoteTtlMinutes
    underpayTolerancePct
  }
  createdAt
  updatedAt
  approvedAt
  creditClaimedAt
}`;

export const CreateQrCode = `mutation CreateQrCode($input: CreateQrCodeInput!) {
  createQrCode(input: $input) {
    deposit {
      ...CashierDeposit
    }
    userErrors {
      field
      code
      message
    }
  }
}

fragment CashierDeposit on Deposit {
  id
  status
  rail
  amount {
    amount
    currency
  }
  fee {
    amount
    currency
  }
  net {
    amount
    currency
  }
  redirectUrl
  declineReason
  merchantReference
  qrCode {
    payload
    svg
    expiresAt
  }
  crypto {
    quoteTtlMinutes
    underpayTolerancePct
  }
  createdAt
  updatedAt
  approvedAt
  creditClaimedAt
}`;

export const Deposit = `query Deposit($id: ID!) {
  deposit(id: $id) {
    ...CashierDeposit
  }
}

fragment CashierDeposit on Deposit {
  id
  status
  rail
  amount {
    amount
    currency
  }
  fee {
    amount
    currency
  }
  net {
    amount
    currency
  }
  redirectUrl
  declineReason
  merchantReference
  qrCode {
    payload
    svg
    expiresAt
  }
  crypto {
    quoteTtlMinutes
    underpayTolerancePct
  }
  createdAt
  updatedAt
  approvedAt
  creditClaimedAt
}`;

export const DepositUpdated = `subscription DepositUpdated($id: ID, $after: String) {
  depositUpdated(id: $id, after: $after) {
    ...CashierDeposit
  }
}

fragment CashierDeposit on Deposit {
  id
  status
  rail
  amount {
    amount
    currency
  }
  fee {
    amount
    currency
  }
  net {
    amount
    currency
  }
  redirectUrl
  declineReason
  merchantReference
  qrCode {
    payload
    svg
    expiresAt
  }
  crypto {
    quoteTtlMinutes
    underpayTolerancePct
  }
  createdAt
  updatedAt
  approvedAt
  creditClaimedAt
}`;
