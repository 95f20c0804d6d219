// A webhook URL registered with the QR gateway for a merchant account (the provider's `wh_` id
// and status). The signing secret is the account's configured one and is not stored here.

import { defineEntity, p } from '@mikro-orm/core';

export const QrWebhookRegistrationSchema = defineEntity({
  name: 'QrWebhookRegistration',
  tableName: 'qr_webhook_registration',
  properties: {
    id: p.string().primary().length(30),
    merchantAccount: p.string().length(64),
    /** The provider's registration id (`wh_…`). */
    providerWebhookId: p.string().length(128).unique(),
    url: p.text(),
    events: p.array().$type<string[]>(),
    /** The provider's word, e.g. `active`. */
    status: p.string().length(32),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
  indexes: [{ name: 'qr_webhook_registration_account_idx', properties: ['merchantAccount', 'createdAt'] }],
});

export class QrWebhookRegistration extends QrWebhookRegistrationSchema.class {}

QrWebhookRegistrationSchema.setClass(QrWebhookRegistration);
