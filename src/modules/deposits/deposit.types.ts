// GraphQL shapes of deposits: one Deposit type for every rail of every provider, Money, the
// status and rail enums, the list filter and the connection.

import { Field, InputType, Int, ObjectType, registerEnumType } from 'type-graphql';
import { Node } from '../../graphql/node.js';
import { RailEnum } from '../../graphql/rail.js';
import { connectionType } from '../../graphql/relay.js';
import { CurrencyScalar, DecimalScalar } from '../../graphql/scalars.js';
import { FieldReads } from '../../graphql/selection.js';
import { isoText, type WithIsoDates } from '../../lib/iso-time.js';
import { canonicalDecimal } from '../../lib/money.js';
import type { DepositStatus, ProviderName, Rail, RefundStatus } from '../../providers/provider.js';
import { BUILT_IN_PROVIDERS } from '../../providers/index.js';
import { graphqlValueOf } from '../../providers/registry.js';
import type { Deposit } from './deposit.entity.js';
import { DEPOSIT_SNAPSHOT_PROPERTIES, type DepositSnapshot, type DepositSnapshotProperty } from './deposit-snapshot.js';
import { QrCodeNode } from './qr-code.node.js';

export const DepositStatusEnum = {
  PENDING: 'PENDING',
  AUTHORIZED: 'AUTHORIZED',
  SUCCEEDED: 'SUCCEEDED',
  DECLINED: 'DECLINED',
  EXPIRED: 'EXPIRED',
  CANCELLED: 'CANCELLED',
  FAILED: 'FAILED',
  REFUNDED: 'REFUNDED',
} as const satisfies Record<DepositStatus, DepositStatus>;

registerEnumType(DepositStatusEnum, {
  name: 'DepositStatus',
  description: 'Where a deposit stands. Credit a player on SUCCEEDED only.',
  valuesConfig: {
    PENDING: { description: 'Created; waiting for the payer or the bank.' },
    AUTHORIZED: { description: 'Authorized: money has left the payer, not yet settled. Do not credit yet.' },
    SUCCEEDED: { description: 'Funds received. The only status on which to credit the player, once.' },
    DECLINED: { description: 'Not completed; no money taken.' },
    EXPIRED: { description: 'The payer never completed in time; no money taken.' },
    CANCELLED: { description: 'The payer abandoned; no money taken.' },
    FAILED: { description: 'A technical failure; no money taken; safe to try again.' },
    REFUNDED: { description: 'A succeeded deposit returned in full.' },
  },
});

/**
 * The PaymentProvider enum: one value per provider, its name in upper case (`graphqlValueOf`),
 * described by its registry definition. Built from the built-in providers, so the committed SDL
 * names exactly those; a gateway that registers more adds theirs to its own schema only
 * (`withPaymentProviders`).
 */
const paymentProviderValues: Record<string, string> = Object.fromEntries(BUILT_IN_PROVIDERS.map((definition) => [graphqlValueOf(definition.name), graphqlValueOf(definition.name)]));
const paymentProviderDescriptions: Record<string, { description: string }> = Object.fromEntries(
  BUILT_IN_PROVIDERS.map((definition) => [graphqlValueOf(definition.name), { description: definition.description }]),
);
export const PaymentProviderEnum: Readonly<Record<string, string>> = paymentProviderValues;
export type PaymentProvider = string;
registerEnumType(PaymentProviderEnum, { name: 'PaymentProvider', description: 'Which provider carries the deposit.', valuesConfig: paymentProviderDescriptions });

/**
 * Runs a synchronous schema build (type-graphql's `buildSchemaSync`) with PaymentProvider holding
 * these providers' values too. type-graphql reads an enum's object when it builds a schema and
 * keeps it nowhere else, so the values exist for that build only: another gateway in the same
 * process, built before or after, does not see them.
 */
export function withPaymentProviders<T>(definitions: ReadonlyArray<{ name: string; description: string }>, build: () => T): T {
  const added = definitions.map((definition) => ({ value: graphqlValueOf(definition.name), description: definition.description })).filter(({ value }) => !(value in paymentProviderValues));
  for (const { value, description } of added) {
    paymentProviderValues[value] = value;
    paymentProviderDescriptions[value] = { description };
  }
  try {
    return build();
  } finally {
    for (const { value } of added) {
      delete paymentProviderValues[value];
      delete paymentProviderDescriptions[value];
    }
  }
}

/** A provider's internal name as the PaymentProvider enum value. */
export const paymentProviderOf = (name: ProviderName): PaymentProvider => graphqlValueOf(name);

export const RefundStatusEnum = { REQUESTED: 'REQUESTED', APPROVED: 'APPROVED', REJECTED: 'REJECTED' } as const satisfies Record<RefundStatus, RefundStatus>;
registerEnumType(RefundStatusEnum, {
  name: 'RefundStatus',
  description: 'Where a refund stands.',
  valuesConfig: {
    REQUESTED: { description: 'Sent to the provider; waiting for its answer.' },
    APPROVED: { description: 'The provider returned the money to the payer.' },
    REJECTED: { description: 'The provider refused; no money was returned.' },
  },
});

@ObjectType({ simpleResolvers: true, description: 'An exact amount of money.' })
export class Money {
  @Field(() => DecimalScalar, { description: 'Exact decimal string with the currency\'s number of decimals, e.g. "10.50", "1000" (CLP).' })
  amount!: string;

  @Field(() => CurrencyScalar, { description: 'ISO 4217 code, e.g. "EUR".' })
  currency!: string;

  static of(amount: string | null, currency: string): Money | null {
    if (amount == null) return null;
    const money = new Money();
    money.amount = amount;
    money.currency = currency;
    return money;
  }
}

@ObjectType({ simpleResolvers: true, description: 'One key/value pair of a deposit\'s metadata.' })
export class MetadataEntry {
  @Field({ description: 'The key, as the client gave it.' })
  key!: string;

  @Field({ description: 'The value, as the client gave it.' })
  value!: string;
}

@ObjectType({ simpleResolvers: true, description: 'Terms of a crypto quote.' })
export class CryptoQuote {
  @Field(() => Int, { description: 'Minutes for which the quoted crypto amount is valid.' })
  quoteTtlMinutes!: number;

  @Field(() => DecimalScalar, { description: 'Percentage below the exact quote still accepted (covers network fees).' })
  underpayTolerancePct!: string;
}

@ObjectType('Deposit', { implements: Node, simpleResolvers: true, description: 'Money coming in from a player, on any rail of any provider.' })
export class DepositNode extends Node {
  @Field(() => DepositStatusEnum, { description: 'Where the deposit stands. Credit the player on SUCCEEDED only.' })
  status!: DepositStatus;

  @Field(() => String, { nullable: true, description: 'The provider\'s own status word, for support.' })
  providerStatus!: string | null;

  /** Admins only (`DEPOSIT_REDACTION`): null for other readers on every path (src/graphql/redaction.ts). */
  @Field(() => String, { nullable: true, description: 'The processor\'s exact code. Admins only (null for other callers); never show it to players.' })
  statusReason!: string | null;

  @Field(() => Money, { description: 'The amount the player pays.' })
  amount!: Money;

  @Field(() => Money, { nullable: true, description: 'The provider\'s fee, once known.' })
  fee!: Money | null;

  @Field(() => Money, { nullable: true, description: 'Amount minus fee: what settles to the merchant.' })
  net!: Money | null;

  @Field(() => Money, { description: 'Sum of executed refunds.' })
  refundedAmount!: Money;

  @Field(() => RefundStatusEnum, { nullable: true, description: 'Where its refunds stand together: REQUESTED while one is open, else APPROVED once one was executed, else REJECTED; null when there is none.' })
  refundStatus!: RefundStatus | null;

  @Field({ description: 'True once a chargeback was opened.' })
  disputed!: boolean;

  @Field(() => RailEnum, { description: 'How the money moves.' })
  rail!: Rail;

  @Field(() => PaymentProviderEnum, { description: 'The provider that carries the deposit.' })
  provider!: PaymentProvider;

  @Field({ description: 'Code of the merchant account that carries it.' })
  merchantAccount!: string;

  @Field(() => String, { nullable: true, description: 'Where to send the player. Never credit on the player\'s return: wait for SUCCEEDED.' })
  redirectUrl!: string | null;

  @Field(() => String, { nullable: true, description: 'The client\'s own reference.' })
  merchantReference!: string | null;

  @Field(() => String, { nullable: true, description: 'Neutral decline category, safe to show: expired_card, invalid_details, verification_failed, too_many_attempts, declined.' })
  declineReason!: string | null;

  @Field(() => CryptoQuote, { nullable: true, description: 'Terms of the crypto quote (CRYPTO rail only).' })
  crypto!: CryptoQuote | null;

  @Field(() => [MetadataEntry], { description: 'The client\'s own key/value pairs given at creation, in key order; empty when none.' })
  metadata!: MetadataEntry[];

  @Field(() => QrCodeNode, { nullable: true, description: 'The code to show (THAI_QR rail only).' })
  qrCode!: QrCodeNode | null;

  @Field({ description: 'False for test-mode deposits: no real money moved.' })
  livemode!: boolean;

  // Times stay the snapshot's ISO strings: DateTime answers them as they are, with no Date between.
  @Field(() => Date, { description: 'When the deposit was created.' })
  createdAt!: string;

  @Field(() => Date, { description: 'When the deposit last changed.' })
  updatedAt!: string;

  @Field(() => Date, { nullable: true, description: 'When the funds were confirmed.' })
  approvedAt!: string | null;

  @Field(() => Date, { nullable: true, description: 'When the client first claimed the credit (claimDepositCredit): the player was credited once, then. Every later event of the deposit carries it, so a refund or chargeback of a credited deposit says so.' })
  creditClaimedAt!: string | null;

  /** Owner, for visibility checks; not exposed. */
  clientId!: string;

  static from(snapshot: DepositSnapshot): DepositNode {
    // Set one by one, not Object.assign'ed from a literal: a page makes one per deposit, each one object.
    const node = new DepositNode();
    node.id = snapshot.id;
    node.clientId = snapshot.clientId;
    node.status = snapshot.status;
    node.providerStatus = snapshot.providerStatus;
    node.statusReason = snapshot.statusReason;
    node.amount = Money.of(snapshot.amount, snapshot.currency)!;
    node.fee = Money.of(snapshot.fee, snapshot.currency);
    node.net = Money.of(snapshot.net, snapshot.currency);
    node.refundedAmount = Money.of(snapshot.refundedAmount, snapshot.currency)!;
    node.refundStatus = snapshot.refundStatus;
    node.disputed = snapshot.disputed;
    node.rail = snapshot.rail;
    node.provider = paymentProviderOf(snapshot.provider);
    node.merchantAccount = snapshot.merchantAccount;
    node.redirectUrl = snapshot.redirectUrl;
    node.merchantReference = snapshot.merchantReference;
    node.declineReason = snapshot.declineReason;
    node.crypto = snapshot.crypto ? Object.assign(new CryptoQuote(), snapshot.crypto) : null;
    node.metadata = snapshot.metadata
      ? Object.entries(snapshot.metadata)
          .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
          .map(([key, value]) => Object.assign(new MetadataEntry(), { key, value }))
      : [];
    node.qrCode = snapshot.qrPayload && snapshot.qrExpiresAt ? Object.assign(new QrCodeNode(), { payload: snapshot.qrPayload, expiresAt: new Date(snapshot.qrExpiresAt) }) : null;
    node.livemode = snapshot.livemode;
    node.createdAt = snapshot.createdAt;
    node.updatedAt = snapshot.updatedAt;
    node.approvedAt = snapshot.approvedAt;
    node.creditClaimedAt = snapshot.creditClaimedAt ?? null;
    return node;
  }

  /**
   * The node `from(toDepositSnapshot(row))` makes, from a row read with only some of the snapshot's
   * properties (a page reading what its query asks, `DEPOSIT_FIELD_READS`), without the snapshot
   * between: each field whose properties were read is set as `from` sets it, the others stay unset.
   */
  static fromRow(row: WithIsoDates<Pick<Deposit, 'id' | 'createdAt'> & Partial<Pick<Deposit, DepositSnapshotProperty>>>): DepositNode {
    const node = new DepositNode();
    node.id = row.id;
    node.createdAt = isoText(row.createdAt);
    if (row.clientId !== undefined) node.clientId = row.clientId;
    if (row.status !== undefined) node.status = row.status;
    if (row.providerStatus !== undefined) node.providerStatus = row.providerStatus ?? null;
    if (row.statusReason !== undefined) node.statusReason = row.statusReason ?? null;
    const { currency } = row;
    if (currency !== undefined) {
      const money = (amount: string | null | undefined) => (amount == null ? null : Money.of(canonicalDecimal(amount, currency), currency));
      if (row.amount !== undefined) node.amount = money(row.amount)!;
      if (row.fee !== undefined) node.fee = money(row.fee);
      if (row.net !== undefined) node.net = money(row.net);
      if (row.refundedAmount !== undefined) node.refundedAmount = money(row.refundedAmount ?? '0')!;
    }
    if (row.refundStatus !== undefined) node.refundStatus = row.refundStatus ?? null;
    if (row.disputed !== undefined) node.disputed = row.disputed ?? false;
    if (row.rail !== undefined) node.rail = row.rail;
    if (row.provider !== undefined) node.provider = paymentProviderOf(row.provider);
    if (row.merchantAccount !== undefined) node.merchantAccount = row.merchantAccount;
    if (row.redirectUrl !== undefined) node.redirectUrl = row.redirectUrl ?? null;
    if (row.merchantReference !== undefined) node.merchantReference = row.merchantReference ?? null;
    if (row.declineReason !== undefined) node.declineReason = row.declineReason ?? null;
    if (row.crypto !== undefined) {
      node.crypto = row.crypto ? Object.assign(new CryptoQuote(), { quoteTtlMinutes: row.crypto.quoteTtlMinutes, underpayTolerancePct: row.crypto.underpayTolerancePct }) : null;
    }
    if (row.metadata !== undefined) {
      node.metadata = row.metadata
        ? Object.entries(row.metadata)
            .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
            .map(([key, value]) => Object.assign(new MetadataEntry(), { key, value }))
        : [];
    }
    if (row.qrPayload !== undefined && row.qrExpiresAt !== undefined) {
      node.qrCode = row.qrPayload && row.qrExpiresAt ? Object.assign(new QrCodeNode(), { payload: row.qrPayload, expiresAt: new Date(isoText(row.qrExpiresAt)) }) : null;
    }
    if (row.livemode !== undefined) node.livemode = row.livemode;
    if (row.updatedAt !== undefined) node.updatedAt = isoText(row.updatedAt);
    if (row.approvedAt !== undefined) node.approvedAt = row.approvedAt ? isoText(row.approvedAt) : null;
    if (row.creditClaimedAt !== undefined) node.creditClaimedAt = row.creditClaimedAt ? isoText(row.creditClaimedAt) : null;
    return node;
  }
}

/**
 * What each field of Deposit reads of a deposit's row, for a page that reads only what its query
 * asks (`DepositResolver.deposits`, `DepositNode.fromRow`). Every row is read with its id and its
 * creation time (the page's order and cursors). A field named nowhere here, or any that a field
 * resolver adds, reads the whole snapshot until it is named.
 */
export const DEPOSIT_FIELD_READS = new FieldReads<DepositSnapshotProperty>(
  {
    id: [],
    status: ['status'],
    providerStatus: ['providerStatus'],
    statusReason: ['statusReason'],
    amount: ['amount', 'currency'],
    fee: ['fee', 'currency'],
    net: ['net', 'currency'],
    refundedAmount: ['refundedAmount', 'currency'],
    refundStatus: ['refundStatus'],
    disputed: ['disputed'],
    rail: ['rail'],
    provider: ['provider'],
    merchantAccount: ['merchantAccount'],
    redirectUrl: ['redirectUrl'],
    merchantReference: ['merchantReference'],
    declineReason: ['declineReason'],
    crypto: ['crypto'],
    metadata: ['metadata'],
    qrCode: ['qrPayload', 'qrExpiresAt'],
    livemode: ['livemode'],
    createdAt: [],
    updatedAt: ['updatedAt'],
    approvedAt: ['approvedAt'],
    creditClaimedAt: ['creditClaimedAt'],
    // Field resolvers: the refunds' visibility check reads the deposit's owner and account; the
    // events and the timeline are read by its id.
    refunds: ['clientId', 'merchantAccount'],
    events: [],
    timeline: [],
  },
  ['id', 'createdAt'],
  DEPOSIT_SNAPSHOT_PROPERTIES,
);

@ObjectType({ description: 'A page of deposits, newest first.' })
export class DepositConnection extends connectionType(DepositNode, 'Deposit') {}

@InputType({ description: 'Narrows `deposits`. All given conditions must hold.' })
export class DepositFilter {
  @Field(() => DepositStatusEnum, { nullable: true, description: 'Only deposits in this status.' })
  status?: DepositStatus;

  @Field(() => RailEnum, { nullable: true, description: 'Only deposits on this rail.' })
  rail?: Rail;

  @Field({ nullable: true, description: 'Only deposits with this merchant reference.' })
  merchantReference?: string;

  @Field({ nullable: true, description: 'Created at or after this time.' })
  createdAfter?: Date;

  @Field({ nullable: true, description: 'Created before this time.' })
  createdBefore?: Date;
}
