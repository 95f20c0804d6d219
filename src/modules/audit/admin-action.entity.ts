// One row per admin action (creating or revoking a client, replaying a webhook, reconciling a
// deposit, simulating a payment, registering a webhook URL): who did what to which objects, and how
// it ended. Written before the action runs, so an action cut short by a crash still shows, with no
// outcome. Never holds keys, card or account numbers or e-mail addresses: only ids and codes.

import { defineEntity, p } from '@mikro-orm/core';

/** An object an action touched: `kind` names where its id came from (an argument or a payload field). */
export interface AdminActionObject {
  kind: string;
  id: string;
}

export const AdminActionSchema = defineEntity({
  name: 'AdminAction',
  tableName: 'admin_action',
  properties: {
    id: p.string().primary().length(30),
    /** The mutation, e.g. `revokeApiClient`. */
    action: p.string().length(64),
    clientId: p.string().length(30),
    /** The client's name when it acted, kept even if the client is renamed or revoked later. */
    clientName: p.string().length(100),
    requestId: p.text(),
    objects: p.json<AdminActionObject[]>(),
    /** `OK`, the first userError code or the error code; null while running or if the action never finished. */
    outcome: p.string().length(64).nullable(),
    startedAt: p.datetime(),
    finishedAt: p.datetime().nullable(),
  },
});

export class AdminAction extends AdminActionSchema.class {}

AdminActionSchema.setClass(AdminAction);
