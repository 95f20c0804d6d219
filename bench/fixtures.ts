// What the benches send: the card deposit of the test fixtures, the GraphQL operations, and signed
// provider webhooks. Shared by the harness and its child processes so both sides send the same.

import { randomBytes } from 'node:crypto';
import { SIGNATURE_HEADER } from '../src/providers/deposit-gateway/assumptions.js';
import { signatureHeader } from '../src/providers/deposit-gateway/index.js';
import type { Customer, MerchantAccount } from '../src/providers/provider.js';

/** The card deposit of the test fixtures (test/deposits/fixtures.ts), as a cashier sends it. */
export const CUSTOMER: Customer = {
  email: 'ana@example.com',
  firstName: 'Ana',
  lastName: 'Silva',
  country: 'NL',
  address1: 'Damrak 1',
  city: 'Amsterdam',
  zipCode: '1012LG',
  phone: '+31201234567',
};
export const AMOUNT = '25.00';
export const CURRENCY = 'EUR';

/** The one merchant account of the bench: a deposit-gateway test account served by the sandbox process. */
export const BENCH_ACCOUNT: MerchantAccount = {
  code: 'dg-bench',
  provider: 'deposit-gateway',
  livemode: false,
  baseUrl: '',
  apiKey: 'svc_test_bench_deposit_gateway',
  webhookSecrets: ['whsec_bench_deposit_gateway'],
};

export const CREATE_DEPOSIT = `
  mutation BenchCreateDeposit($input: CreateDepositInput!) {
    createDeposit(input: $input) {
      deposit { id status providerStatus redirectUrl amount { amount currency } }
      userErrors { field code message }
    }
  }
`;

/** B2: a page of deposits with their refunds and events, as a back office lists them. */
export const DEPOSITS_PAGE = `
  query BenchDepositsPage($first: Int!) {
    deposits(first: $first) {
      edges {
        cursor
        node {
          id status providerStatus rail merchantAccount createdAt updatedAt
          amount { amount currency } fee { amount currency } net { amount currency }
          refunds { id status amount { amount currency } createdAt }
          events { id type fromStatus toStatus createdAt }
        }
      }
      pageInfo { hasNextPage endCursor }
    }
  }
`;

export const DEPOSIT_UPDATED = `
  subscription BenchDepositUpdated {
    depositUpdated { id status providerStatus declineReason amount { amount currency } fee { amount currency } net { amount currency } }
  }
`;

interface GraphqlAnswer<T> {
  data?: T | null;
  errors?: Array<{ message: string }>;
}

/** One GraphQL request over HTTP; throws on transport or GraphQL errors, so no failure is counted as work done. */
export async function graphql<T>(url: string, key: string, query: string, variables: Record<string, unknown>): Promise<T> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
    body: JSON.stringify({ query, variables }),
  });
  const body = (await response.json()) as GraphqlAnswer<T>;
  if (response.status !== 200 || body.errors?.length || !body.data) {
    throw new Error(`GraphQL request failed (${response.status}): ${JSON.stringify(body.errors ?? body).slice(0, 500)}`);
  }
  return body.data;
}

/** One card createDeposit; returns the new deposit's id. */
export async function createCardDeposit(graphqlUrl: string, key: string): Promise<string> {
  const data = await graphql<{ createDeposit: { deposit: { id: string } | null; userErrors: unknown[] } }>(graphqlUrl, key, CREATE_DEPOSIT, {
    input: { amount: AMOUNT, customer: CUSTOMER, card: {} },
  });
  if (!data.createDeposit.deposit) throw new Error(`createDeposit refused: ${JSON.stringify(data.createDeposit.userErrors)}`);
  return data.createDeposit.deposit.id;
}

/** A deposit the provider has approved and the gateway still holds as PENDING: waiting for its webhook. */
export interface ApprovedDeposit {
  id: string;
  reference: string;
  amount: string;
  currency: string;
}

/** A `payment.approved` delivery for `deposit`, signed as the provider signs it. */
export function signedApproval(deposit: ApprovedDeposit, secrets: readonly string[]): { body: string; headers: Record<string, string> } {
  const body = JSON.stringify({
    id: `evt_${randomBytes(10).toString('hex')}`,
    event: 'payment.approved',
    livemode: false,
    created_at: new Date().toISOString(),
    data: { reference: deposit.reference, merchant_reference: deposit.id, status: 'approved', amount: deposit.amount, currency: deposit.currency },
  });
  return { body, headers: { 'content-type': 'application/json', [SIGNATURE_HEADER]: signatureHeader(body, [...secrets], Math.floor(Date.now() / 1000)) } };
}

/** POSTs one signed approval; returns the HTTP status and the gateway's outcome word. */
export async function sendApproval(webhookUrl: string, deposit: ApprovedDeposit, secrets: readonly string[]): Promise<{ status: number; outcome: string | undefined; answer: unknown }> {
  const { body, headers } = signedApproval(deposit, secrets);
  const response = await fetch(webhookUrl, { method: 'POST', headers, body });
  const answer = (await response.json()) as { outcome?: string };
  return { status: response.status, outcome: answer.outcome, answer };
}

/** POSTs one signed approval; throws unless the gateway applied it. */
export async function postApproval(webhookUrl: string, deposit: ApprovedDeposit, secrets: readonly string[]): Promise<void> {
  const { status, outcome, answer } = await sendApproval(webhookUrl, deposit, secrets);
  if (status !== 200 || outcome !== 'applied') throw new Error(`webhook for ${deposit.id} answered ${status} ${JSON.stringify(answer)}`);
}
