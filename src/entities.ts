// Every entity the ORM maps, in one list (defineEntity schemas; no file discovery), given to
// openDatabase by whoever opens the database: each module owns its entities, and src/db, the layer
// below every module, imports none of them.

import { AdminActionSchema } from './modules/audit/admin-action.entity.js';
import { ApiClientSchema } from './modules/clients/api-client.entity.js';
import { ApiKeySchema } from './modules/clients/api-key.entity.js';
import { DepositSchema } from './modules/deposits/deposit.entity.js';
import { PaymentEventSchema } from './kernel/events/payment-event.entity.js';
import { PayoutSchema } from './modules/payouts/payout.entity.js';
import { RefundSchema } from './modules/refunds/refund.entity.js';
import { WebhookDeliverySchema } from './kernel/inbox/webhook-delivery.entity.js';
import { QrWebhookRegistrationSchema } from './modules/qr-codes/qr-webhook-registration.entity.js';
import { WithdrawalSchema } from './modules/withdrawals/withdrawal.entity.js';

export const entities = [AdminActionSchema, ApiClientSchema, ApiKeySchema, DepositSchema, PaymentEventSchema, WebhookDeliverySchema, RefundSchema, PayoutSchema, QrWebhookRegistrationSchema, WithdrawalSchema];
