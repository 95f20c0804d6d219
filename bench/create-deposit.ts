// createDeposit throughput over HTTP, beside a baseline of the same sandbox call plus one direct INSERT.

import { newId } from '../src/lib/ids.js';
import { Money } from '../src/lib/money.js';
import type { Customer } from '../src/providers/provider.js';
import type { Gateway } from '../src/server/gateway.js';
import { runAtConcurrency, type ThroughputResult } from './stats.js';

/** The card deposit of the test fixtures (test/deposits/fixtures.ts), as a cashier sends it. */
const CUSTOMER: Customer = {
  email: 'ana@example.com',
  firstName: 'Ana',
  lastName: 'Silva',
  country: 'NL',
  address1: 'Damrak 1',
  city: 'Amsterdam',
  zipCode: '1012LG',
  phone: '+31201234567',
};
const AMOUNT = '25.00';
const CURRENCY = 'EUR';
const ACCOUNT = 'dg-test';
const SCRATCH_TABLE = 'bench_baseline_insert';

const CREATE_DEPOSIT = `
  mutation BenchCreateDeposit($input: CreateDepositInput!) {
    createDeposit(input: $input) {
      deposit { id status providerStatus redirectUrl amount { amount currency } }
      userErrors { field code message }
    }
  }
`;

interface CreateDepositResponse {
  data?: {
    createDeposit: {
      deposit: { id: string; status: string } | null;
      userErrors: Array<{ code: string; message: string }>;
    };
  } | null;
  errors?: Array<{ message: string }>;
}

/** One card createDeposit over HTTP; returns the new deposit's id or throws with what went wrong. */
export async function createCardDeposit(gateway: Gateway, key: string): Promise<string> {
  const response = await fetch(gateway.graphqlUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
    body: JSON.stringify({ query: CREATE_DEPOSIT, variables: { input: { amount: AMOUNT, customer: CUSTOMER, card: {} } } }),
  });
  const body = (await response.json()) as CreateDepositResponse;
  const payload = body.data?.createDeposit;
  if (response.status !== 200 || !payload?.deposit) {
    throw new Error(`createDeposit failed (${response.status}): ${JSON.stringify(body.errors ?? payload?.userErrors)}`);
  }
  return payload.deposit.id;
}

export interface CreateDepositBenchOptions {
  operations: number;
  warmup: number;
  concurrency: number;
}

export interface CreateDepositBenchResult {
  gateway: ThroughputResult;
  baseline: ThroughputResult;
  /** POST /v1/payments the sandbox received during the gateway run: must equal `operations`. */
  sandboxPaymentsPerRun: number;
  /** SQL statements the gateway's ORM issued per mutation (transaction control included). */
  statementsPerMutation: number;
}

/**
 * Runs both sides with the sandbox's auto-completion off, so neither side also pays for the
 * approval webhooks a test-mode payment would trigger: this measures the request path alone.
 */
export async function benchCreateDeposit(gateway: Gateway, cashierKey: string, options: CreateDepositBenchOptions): Promise<CreateDepositBenchResult> {
  const sandbox = gateway.sandboxes.depositGateway;
  if (!sandbox) throw new Error('the deposit gateway sandbox is not running in-process');
  sandbox.controls.setAutoComplete(false);

  const adapter = gateway.services.providers['deposit-gateway'];
  const account = gateway.config.merchantAccounts.find((candidate) => candidate.code === ACCOUNT);
  if (!account) throw new Error(`merchant account ${ACCOUNT} is not configured`);
  const amount = Money.parse(AMOUNT, CURRENCY);
  if (!amount.ok) throw new Error(amount.error.message);

  await gateway.db.fork().execute(
    `create table if not exists ${SCRATCH_TABLE} (id varchar(30) primary key, reference varchar(255) not null, amount numeric(20,2) not null, currency varchar(3) not null, created_at timestamptz not null default now())`,
  );

  const viaGateway = async (): Promise<void> => {
    await createCardDeposit(gateway, cashierKey);
  };
  const baseline = async (): Promise<void> => {
    const id = newId('dep');
    const result = await adapter.createDeposit(account, { depositId: id, amount: amount.money, details: { rail: 'CARD' }, customer: CUSTOMER });
    if (!result.ok) throw new Error(`sandbox createDeposit failed: ${result.error.code} ${result.error.message}`);
    await gateway.db.fork().execute(`insert into ${SCRATCH_TABLE} (id, reference, amount, currency) values (?, ?, ?, ?)`, [id, result.value.reference, AMOUNT, CURRENCY]);
  };

  // Warm both paths (JIT, connection pools, prepared plans) before anything is timed.
  await runAtConcurrency(options.warmup, options.concurrency, viaGateway);
  await runAtConcurrency(options.warmup, options.concurrency, baseline);

  const before = sandbox.controls.requestCount('/payments', 'POST');
  const queriesBefore = gateway.db.queryCount();
  const gatewayResult = await runAtConcurrency(options.operations, options.concurrency, viaGateway);
  const statementsPerMutation = (gateway.db.queryCount() - queriesBefore) / options.operations;
  const sandboxPaymentsPerRun = sandbox.controls.requestCount('/payments', 'POST') - before;
  const baselineResult = await runAtConcurrency(options.operations, options.concurrency, baseline);

  await gateway.db.fork().execute(`drop table if exists ${SCRATCH_TABLE}`);
  sandbox.controls.setAutoComplete(true);
  return { gateway: gatewayResult, baseline: baselineResult, sandboxPaymentsPerRun, statementsPerMutation };
}
