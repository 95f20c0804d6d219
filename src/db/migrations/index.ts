// Every migration, in order. Listed explicitly so the compiled server and the test runner load
// the same set without globbing the file system.

import { Migration20261121000000_api_clients } from './Migration20261121000000_api_clients.js';
import { Migration20261121100000_deposits } from './Migration20261121100000_deposits.js';
import { Migration20261121110000_deposit_submission } from './Migration20261121110000_deposit_submission.js';
import { Migration20261121120000_refunds } from './Migration20261121120000_refunds.js';
import { Migration20261121130000_payouts } from './Migration20261121130000_payouts.js';
import { Migration20261121140000_reconciliation } from './Migration20261121140000_reconciliation.js';
import { Migration20261121150000_qr_webhook_registrations } from './Migration20261121150000_qr_webhook_registrations.js';
import { Migration20261121160000_provider_refunds_and_withdrawals } from './Migration20261121160000_provider_refunds_and_withdrawals.js';
import { Migration20261123100000_jobs } from './Migration20261123100000_jobs.js';
import { Migration20261123110000_event_visibility } from './Migration20261123110000_event_visibility.js';
import { Migration20261123120000_recovery } from './Migration20261123120000_recovery.js';
import { Migration20261123130000_idempotency } from './Migration20261123130000_idempotency.js';
import { Migration20261123140000_event_horizon } from './Migration20261123140000_event_horizon.js';
import { Migration20261123210000_admin_actions } from './Migration20261123210000_admin_actions.js';
import { Migration20261123220000_rejected_webhook_index } from './Migration20261123220000_rejected_webhook_index.js';
import { Migration20261124100000_reconciliation_jobs } from './Migration20261124100000_reconciliation_jobs.js';
import { Migration20261124110000_idempotency_columns } from './Migration20261124110000_idempotency_columns.js';
import { Migration20261127100000_open_provider_names } from './Migration20261127100000_open_provider_names.js';
import { Migration20261127110000_retention } from './Migration20261127110000_retention.js';
import { Migration20261127113000_event_horizon_per_database } from './Migration20261127113000_event_horizon_per_database.js';
import { Migration20261127120000_deposit_metadata } from './Migration20261127120000_deposit_metadata.js';
import { Migration20261127130000_trusted_documents } from './Migration20261127130000_trusted_documents.js';
import { Migration20261127150000_deposit_credit_claim } from './Migration20261127150000_deposit_credit_claim.js';
import { Migration20261128100000_notifications } from './Migration20261128100000_notifications.js';
import { Migration20261128120000_admin_list_indexes } from './Migration20261128120000_admin_list_indexes.js';
import { Migration20261206100000_idempotency_holder } from './Migration20261206100000_idempotency_holder.js';
import { Migration20261206110000_deposit_credit_claim_key } from './Migration20261206110000_deposit_credit_claim_key.js';
import { Migration20261207100000_personal_data_retention } from './Migration20261207100000_personal_data_retention.js';
import { Migration20261207120000_api_keys } from './Migration20261207120000_api_keys.js';
import { Migration20261208100000_notification_endpoint_disabled_reason } from './Migration20261208100000_notification_endpoint_disabled_reason.js';
import { Migration20261208110000_notification_endpoint_probe } from './Migration20261208110000_notification_endpoint_probe.js';

export const migrations = [
  { name: 'Migration20261121000000_api_clients', class: Migration20261121000000_api_clients },
  { name: 'Migration20261121100000_deposits', class: Migration20261121100000_deposits },
  { name: 'Migration20261121110000_deposit_submission', class: Migration20261121110000_deposit_submission },
  { name: 'Migration20261121120000_refunds', class: Migration20261121120000_refunds },
  { name: 'Migration20261121130000_payouts', class: Migration20261121130000_payouts },
  { name: 'Migration20261121140000_reconciliation', class: Migration20261121140000_reconciliation },
  { name: 'Migration20261121150000_qr_webhook_registrations', class: Migration20261121150000_qr_webhook_registrations },
  { name: 'Migration20261121160000_provider_refunds_and_withdrawals', class: Migration20261121160000_provider_refunds_and_withdrawals },
  { name: 'Migration20261123100000_jobs', class: Migration20261123100000_jobs },
  { name: 'Migration20261123110000_event_visibility', class: Migration20261123110000_event_visibility },
  { name: 'Migration20261123120000_recovery', class: Migration20261123120000_recovery },
  { name: 'Migration20261123130000_idempotency', class: Migration20261123130000_idempotency },
  { name: 'Migration20261123140000_event_horizon', class: Migration20261123140000_event_horizon },
  { name: 'Migration20261123210000_admin_actions', class: Migration20261123210000_admin_actions },
  { name: 'Migration20261123220000_rejected_webhook_index', class: Migration20261123220000_rejected_webhook_index },
  { name: 'Migration20261124100000_reconciliation_jobs', class: Migration20261124100000_reconciliation_jobs },
  { name: 'Migration20261124110000_idempotency_columns', class: Migration20261124110000_idempotency_columns },
  { name: 'Migration20261127100000_open_provider_names', class: Migration20261127100000_open_provider_names },
  { name: 'Migration20261127110000_retention', class: Migration20261127110000_retention },
  { name: 'Migration20261127113000_event_horizon_per_database', class: Migration20261127113000_event_horizon_per_database },
  { name: 'Migration20261127120000_deposit_metadata', class: Migration20261127120000_deposit_metadata },
  { name: 'Migration20261127130000_trusted_documents', class: Migration20261127130000_trusted_documents },
  { name: 'Migration20261127150000_deposit_credit_claim', class: Migration20261127150000_deposit_credit_claim },
  { name: 'Migration20261128100000_notifications', class: Migration20261128100000_notifications },
  { name: 'Migration20261128120000_admin_list_indexes', class: Migration20261128120000_admin_list_indexes },
  { name: 'Migration20261206100000_idempotency_holder', class: Migration20261206100000_idempotency_holder },
  { name: 'Migration20261206110000_deposit_credit_claim_key', class: Migration20261206110000_deposit_credit_claim_key },
  { name: 'Migration20261207100000_personal_data_retention', class: Migration20261207100000_personal_data_retention },
  { name: 'Migration20261207120000_api_keys', class: Migration20261207120000_api_keys },
  { name: 'Migration20261208100000_notification_endpoint_disabled_reason', class: Migration20261208100000_notification_endpoint_disabled_reason },
  { name: 'Migration20261208110000_notification_endpoint_probe', class: Migration20261208110000_notification_endpoint_probe },
];
