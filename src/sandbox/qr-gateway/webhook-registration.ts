// POST /v1/webhooks in the QR sandbox (spec: Webhook registration; Q19): the events checked against
// the provider's list, the URL against its rules (HTTPS, or http on loopback for a test key) and
// reached once, and a secret generated when none is given; the registration then joins the queue.

import { randomBytes } from 'node:crypto';
import type { Logger } from '../../lib/logger.js';
import {
  ERROR_CODES,
  GENERATED_SECRET_PREFIX,
  LOOPBACK_HOSTS,
  REACHABILITY_TIMEOUT_MS,
  SECRET_LENGTH,
  WEBHOOK_ID_PREFIX,
  isQrEvent,
} from '../../providers/qr-gateway/assumptions.js';
import type { DeliveryQueue, SandboxRegistration } from './deliveries.js';
import { HttpError, invalid } from './errors.js';
import { isJsonObject as isObject, type JsonObject } from './wire.js';

/** Registers a webhook for `apiKey` and answers its registration object (without the secret, Q19). */
export async function registerWebhook(queue: DeliveryQueue, isLiveKey: (apiKey: string) => boolean, log: Logger | undefined, apiKey: string, body: unknown): Promise<JsonObject> {
  if (!isObject(body)) throw invalid('The request body must be a JSON object');
  const { url, events, secret } = body;
  if (typeof url !== 'string' || url === '') throw invalid('url is required');
  if (!Array.isArray(events) || events.length === 0) throw invalid('events must be a non-empty array of event names');
  const unknown = events.filter((event) => !isQrEvent(event));
  if (unknown.length > 0) throw invalid(`Unknown events: ${unknown.map(String).join(', ')}`);
  if (secret !== undefined && secret !== null && (typeof secret !== 'string' || secret.length < SECRET_LENGTH.min || secret.length > SECRET_LENGTH.max)) {
    throw invalid(`secret must be ${SECRET_LENGTH.min} to ${SECRET_LENGTH.max} characters`);
  }
  const badUrl = (message: string): HttpError => new HttpError(422, ERROR_CODES.invalidUrl, message, 'validation_error');
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw badUrl('url is not a valid URL');
  }
  const loopbackHttp = parsed.protocol === 'http:' && LOOPBACK_HOSTS.includes(parsed.hostname) && !isLiveKey(apiKey);
  if (parsed.protocol !== 'https:' && !loopbackHttp) throw badUrl('url must be an HTTPS URL');
  try {
    await fetch(parsed, { method: 'HEAD', redirect: 'manual', signal: AbortSignal.timeout(REACHABILITY_TIMEOUT_MS) });
  } catch {
    throw badUrl('url is not reachable');
  }
  const registration: SandboxRegistration = {
    webhookId: `${WEBHOOK_ID_PREFIX}${randomBytes(12).toString('hex')}`,
    apiKey,
    url,
    events: [...new Set(events as string[])],
    secret: typeof secret === 'string' ? secret : `${GENERATED_SECRET_PREFIX}${randomBytes(32).toString('hex')}`,
    status: 'active',
    createdAt: new Date(),
  };
  queue.register(registration);
  log?.debug({ webhookId: registration.webhookId, events: registration.events }, 'qr sandbox webhook registered');
  return {
    webhook_id: registration.webhookId,
    url: registration.url,
    events: registration.events,
    status: registration.status,
    created_at: registration.createdAt.toISOString(),
  };
}
