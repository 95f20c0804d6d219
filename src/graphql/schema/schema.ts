// Builds the one GraphQL schema from the type-graphql resolvers of every module.

import { GraphQLSchema, lexicographicSortSchema, printSchema } from 'graphql';
import { buildSchemaSync, type NonEmptyArray } from 'type-graphql';
import { AdminActionResolver } from '../../modules/audit/admin-action.resolver.js';
import { ApiClientResolver } from '../../modules/clients/api-client.resolver.js';
import { MerchantAccountResolver } from '../../modules/merchant-accounts/merchant-account.resolver.js';
import { DepositResolver } from '../../modules/deposits/deposit.resolver.js';
import { DepositRefundsResolver, RefundResolver } from '../../modules/refunds/refund.resolver.js';
import { PayoutResolver } from '../../modules/payouts/payout.resolver.js';
import { QrCodeFieldResolver } from '../../modules/deposits/qr-code.node.js';
import { QrCodeResolver } from '../../modules/qr-codes/qr-code.resolver.js';
import { EventResolver } from '../../modules/events/event.resolver.js';
import { DepositEventsResolver, PayoutEventsResolver, WithdrawalEventsResolver } from '../../modules/events/subject-events.resolver.js';
import { CardFormResolver } from '../../modules/deposits/card-form.resolver.js';
import { ReconciliationResolver } from '../../modules/reconciliation/reconciliation.resolver.js';
import { WebhookAdminResolver } from '../../modules/webhooks/webhook-admin.resolver.js';
import { WithdrawalResolver } from '../../modules/withdrawals/withdrawal.resolver.js';
import { NotificationResolver } from '../../modules/notifications/notification.resolver.js';
import { authChecker } from '../auth.js';
import { HeartbeatResolver } from '../heartbeat.resolver.js';
import { NodeResolver } from './node.resolver.js';
import { DateTimeScalar, DecimalScalar } from '../scalars.js';
import { guardStorableArguments } from '../storable-arguments.js';
import { auditMutations } from '../audit.js';
import { LocalPubSub, typeGraphqlPubSub } from '../../lib/pubsub.js';
import { withPaymentProviders } from '../../modules/deposits/deposit.types.js';
import { DEPOSIT_REDACTION } from '../../modules/deposits/deposit-snapshot.js';
import { PAYOUT_REDACTION } from '../../modules/payouts/payout-snapshot.js';
import { REFUND_REDACTION } from '../../modules/refunds/refund-snapshot.js';
import { WITHDRAWAL_REDACTION } from '../../modules/withdrawals/withdrawal-snapshot.js';
import { redactAdminOnlyFields, type RedactedType } from '../redaction.js';
import { DepositTimelineResolver, PayoutTimelineResolver, RefundTimelineResolver } from '../../modules/timeline/timeline.resolver.js';
import { TIMELINE_ENTRY_TYPES, TIMELINE_REDACTED_TYPES } from '../../modules/timeline/timeline.types.js';
import type { ProviderDefinition } from '../../providers/registry.js';

// eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
const resolvers: NonEmptyArray<Function> = [NodeResolver, ApiClientResolver, MerchantAccountResolver, DepositResolver, RefundResolver, DepositRefundsResolver, EventResolver, DepositEventsResolver, PayoutEventsResolver, WithdrawalEventsResolver, HeartbeatResolver, QrCodeResolver, QrCodeFieldResolver, PayoutResolver, CardFormResolver, ReconciliationResolver, WebhookAdminResolver, WithdrawalResolver, AdminActionResolver, NotificationResolver, DepositTimelineResolver, RefundTimelineResolver, PayoutTimelineResolver];

/** The type that shows each subject kind, with the kind's redaction policy (notification endpoints have no such type). */
export const REDACTED_TYPES: readonly RedactedType[] = [
  { type: 'Deposit', policy: DEPOSIT_REDACTION },
  { type: 'Refund', policy: REFUND_REDACTION },
  { type: 'Payout', policy: PAYOUT_REDACTION },
  { type: 'Withdrawal', policy: WITHDRAWAL_REDACTION },
];

/**
 * @param pubsub the instance's local fan-out; subscriptions in this schema use their own
 * `subscribe` functions over it, and type-graphql requires it to be present.
 * @param providers the gateway's registered providers: each is a PaymentProvider value of this
 * schema (the built-in ones always are; the committed SDL has exactly those).
 */
export async function buildGatewaySchema(pubsub: LocalPubSub = new LocalPubSub(), providers: readonly ProviderDefinition[] = []): Promise<GraphQLSchema> {
  // Synchronous, so the enum values of this gateway's own providers exist for this build alone.
  const schema = withPaymentProviders(providers, () =>
    buildSchemaSync({
      pubSub: typeGraphqlPubSub(pubsub),
      resolvers,
      orphanedTypes: TIMELINE_ENTRY_TYPES,
      authChecker,
      authMode: 'error',
      scalarsMap: [{ type: Date, scalar: DateTimeScalar }],
      // Input rules live in the services, which return userErrors; no class-validator.
      validate: false,
      emitSchemaFile: false,
    }),
  );
  // Decimal is part of the contract for every amount, including ones in client-side documents
  // that reference it before a field of ours does; keep it in the schema unconditionally.
  const config = schema.toConfig();
  // type-graphql builds the root types without descriptions; they are the API's table of contents.
  if (config.query) config.query.description = 'Reads: every list and object the calling key may see.';
  if (config.mutation) config.mutation.description = 'Changes: money operations (each with an idempotency key) and admin actions. Business failures come back as userErrors in the payload.';
  if (config.subscription) config.subscription.description = 'Live changes over graphql-ws (subprotocol graphql-transport-ws), as they commit on any gateway instance.';
  const full = new GraphQLSchema({ ...config, types: [...config.types.filter((type) => type.name !== DecimalScalar.name), DecimalScalar] });
  // Admin-only fields answer null to other readers, on every path to their type.
  redactAdminOnlyFields(full, REDACTED_TYPES);
  // And the timeline's admin-only detail (what was sent to the provider, errors, reasons), by the same mechanism.
  redactAdminOnlyFields(full, TIMELINE_REDACTED_TYPES);
  // Text the database cannot store is refused at the boundary, never met as a database error.
  // The audit wraps outermost, so a mutation refused for its text is audited too.
  return auditMutations(guardStorableArguments(full));
}

/** The SDL committed as schema/schema.graphql: sorted so that it diffs cleanly. */
export function printGatewaySchema(schema: GraphQLSchema): string {
  return `${printSchema(lexicographicSortSchema(schema))}\n`;
}
