// The example cashier: pick a rail, create a deposit, send the player to its payment page or show
// its Thai QR code, show every status change of the deposit as it arrives over graphql-ws, and
// credit the player exactly once when it SUCCEEDS (claimDepositCredit), however often the page
// hears of it: live, by a read, or after a reload. A dropped socket (a deploy, a restart, a phone
// in a tunnel) is reopened, and the subscription resumes from the last message's cursor, so every
// change made meanwhile still arrives, in order, over the socket.
//
// Plain ES modules, no build step and nothing from npm but graphql-ws's own browser client (the
// gateway serves it from the graphql-ws package). The operations are the typed documents GraphQL
// Code Generator makes from client/operations/cashier.graphql into client/generated, printed into
// ./operations.js: the documents are syntax trees and printing them needs graphql-js, which a page
// this small should not load, so they are printed once, and test/examples/cashier-operations.test.ts
// fails whenever that file differs from what client/generated prints.
//
// Amounts stay decimal strings throughout: never parse money into a float.

import { createClient } from './graphql-ws/client.js';
import { CashierContext, ClaimDepositCredit, CreateDeposit, CreateQrCode, Deposit, DepositUpdated } from './operations.js';

const named = { email: 'ana@example.com', firstName: 'Ana', lastName: 'Silva' };

/** The rails offered, each with the sandbox's sample player. The amount comes from the form. */
const RAILS = {
  PIX: { label: 'PIX (Brazil)', currency: 'BRL', amount: '50.00', input: { customer: { ...named, phone: '+5511912345678', personalId: '52998224725' }, pix: {} } },
  UPI: { label: 'UPI (India)', currency: 'INR', amount: '500.00', input: { customer: { ...named, phone: '+919812345678', personalId: 'ana@okhdfc' }, upi: {} } },
  OPEN_BANKING: {
    label: 'Open banking (SEPA)',
    currency: 'EUR',
    amount: '40.00',
    input: { customer: { ...named, country: 'NL', address1: 'Damrak 1', city: 'Amsterdam', zipCode: '1012LG', phone: '+31201234567' }, openBanking: { method: 'sepa', bankCountry: 'NL' } },
  },
  LATAM: { label: 'LATAM (Mexico)', currency: 'MXN', amount: '500', input: { customer: { ...named, documentType: 'CURP', documentNumber: 'GODE561231HDFRRN04' }, latam: { country: 'MEXICO' } } },
  HOSTED_CHECKOUT: { label: 'Hosted checkout (live-mode accounts only)', currency: 'EUR', amount: '30.00', input: { customer: { email: named.email }, hostedCheckout: { expiresInSeconds: 900 } } },
  THAI_QR: { label: 'Thai QR code', currency: 'THB', amount: '150.00', qr: { payer: { name: 'Somchai Jaidee', bankName: 'Kasikornbank', bankAccount: '1234567890' } } },
};

/** Statuses after which nothing happens to a deposit but a refund. */
const FINAL = new Set(['SUCCEEDED', 'DECLINED', 'FAILED', 'EXPIRED', 'CANCELLED', 'REFUNDED']);

const $ = (id) => document.getElementById(id);
const form = $('deposit-form');
const authorizationField = $('authorization');
const railField = $('rail');
const amountField = $('amount');

/** The deposit on screen: its id, the last status shown, its subscription and how to stop it. */
let current;
/** One graphql-ws client per key, kept across deposits. */
let socket;
/** Deposits whose credit this page has asked to claim: one claim per deposit per page is enough. */
const claiming = new Set();

function authorization() {
  const value = authorizationField.value.trim();
  return value === '' || /^Bearer /i.test(value) ? value : `Bearer ${value}`;
}

/** An HTTP request to /graphql; GraphQL errors are thrown, user errors are returned with the data. */
async function request(query, variables) {
  const response = await fetch('/graphql', {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: authorization() },
    body: JSON.stringify({ query, variables }),
  });
  const body = await response.json().catch(() => undefined);
  if (!body) throw new Error(`The gateway answered HTTP ${response.status}`);
  if (body.errors?.length) throw new Error(body.errors.map((error) => error.message).join('; '));
  return body.data;
}

function liveClient() {
  const key = authorization();
  if (socket?.key === key) return socket.client;
  void socket?.client.dispose();
  const client = createClient({
    url: `${location.protocol === 'https:' ? 'wss:' : 'ws:'}//${location.host}/graphql`,
    connectionParams: { authorization: key },
    // A dropped socket is reopened (a refused key is not: graphql-ws gives up on 4401/4403).
    retryAttempts: 1_000,
    retryWait,
    // While the gateway is down (a restart, a deploy) the browser reports the refused connection
    // as an error event, not a close event, and graphql-ws retries only close events unless told
    // to. The close codes it holds fatal (4400, 4401, 4500, ...) still end the retries.
    shouldRetry: () => true,
    on: {
      connected: () => {
        $('connection').textContent = '· live';
        // A reconnect re-sends the subscription with its last cursor, and the gateway replays what
        // the socket missed before going live again, so no read is needed for that. Until the first
        // message there is no cursor to resume from: a change committed during such a drop is read.
        if (socket?.reconnecting && current && current.variables.after === undefined) void readOverSocket(current.id);
        if (socket) socket.reconnecting = false;
      },
      closed: () => {
        $('connection').textContent = current ? '· reconnecting…' : '';
        if (socket) socket.reconnecting = true;
      },
    },
  });
  socket = { key, client, reconnecting: false };
  return client;
}

/**
 * Waits before graphql-ws reconnects: 1, 2, 4 then at most 8 seconds, each plus up to 2 seconds at
 * random so that cashiers cut off together do not all come back at once. graphql-ws's own wait
 * doubles without end, so a player could wait minutes after a long deploy for news that is there.
 */
function retryWait(retries) {
  const seconds = Math.min(2 ** retries, 8);
  return new Promise((resolve) => setTimeout(resolve, seconds * 1_000 + Math.floor(Math.random() * 2_000)));
}

/** Cursors the gateway refuses to resume from: too old to replay, or not a cursor at all. */
const REFUSED_CURSOR = new Set(['CURSOR_EXPIRED', 'CURSOR_INVALID']);

/** Follows one deposit: its updates on the socket, then one read of where it stands now. */
function watch(id) {
  current?.stop();
  current = { id, last: undefined };
  follow(current);
}

/**
 * Subscribes to the deposit's updates, then reads it once. graphql-ws sends this very payload
 * again on every reconnect, so the cursor kept in its variables makes a reconnect resume there.
 */
function follow(watching) {
  const client = liveClient();
  $('connection').textContent = '· connecting…';
  const variables = { id: watching.id };
  watching.variables = variables;
  watching.stop = client.subscribe(
    { query: DepositUpdated, variables },
    {
      next: (result) => {
        if (result.errors?.some((error) => REFUSED_CURSOR.has(error.extensions?.code))) {
          // Refused before anything was sent, and this subscription ends: read where the deposit
          // stands now and follow it live from here, without a cursor.
          if (current === watching) follow(watching);
          return;
        }
        if (result.errors?.length) showErrors(result.errors.map((error) => error.message));
        if (result.data?.depositUpdated) record(result.data.depositUpdated, 'live');
        if (typeof result.extensions?.cursor === 'string') variables.after = result.extensions.cursor;
      },
      error: (error) => showErrors([`Live updates stopped: ${describe(error)}`]),
      complete: () => undefined,
    },
  );
  // Sent on the same socket after the subscription, so a change committed before the
  // subscription started still shows: the read sees it, and the subscription sees what follows
  // (it has no cursor before its first message, and needs none for what the read covers).
  void readOverSocket(watching.id);
}

async function readOverSocket(id) {
  try {
    for await (const result of liveClient().iterate({ query: Deposit, variables: { id } })) {
      if (result.data?.deposit) record(result.data.deposit, 'read');
    }
  } catch (error) {
    showErrors([`Could not read the deposit: ${describe(error)}`]);
  }
}

/** Shows the deposit as it now stands and adds a line when its status changed; older news is ignored. */
function record(deposit, via) {
  if (!current || deposit.id !== current.id) return;
  const at = Date.parse(deposit.updatedAt);
  if (current.last && at < current.last.at) return;
  render(deposit);
  if (current.last?.status === deposit.status) return;
  current.last = { status: deposit.status, at };
  const line = document.createElement('li');
  line.dataset.status = deposit.status;
  line.dataset.via = via;
  const time = document.createElement('time');
  time.dateTime = deposit.updatedAt;
  time.textContent = new Date(deposit.updatedAt).toLocaleTimeString();
  const status = document.createElement('strong');
  status.textContent = deposit.status;
  const source = document.createElement('span');
  source.className = 'via';
  source.textContent = { created: 'from createDeposit', live: 'live over graphql-ws', read: 'read' }[via];
  line.append(time, status, source);
  $('timeline').append(line);
}

function render(deposit) {
  $('deposit').hidden = false;
  $('deposit-id').textContent = deposit.id;
  $('status').textContent = deposit.status;
  $('status').dataset.status = deposit.status;
  $('deposit-amount').textContent = `${deposit.amount.amount} ${deposit.amount.currency}`;
  $('deposit-rail').textContent = deposit.net ? `${deposit.rail} · fee ${deposit.fee.amount}, net ${deposit.net.amount}` : deposit.rail;
  $('decline').hidden = !deposit.declineReason;
  $('decline').textContent = deposit.declineReason ? `Reason: ${deposit.declineReason}` : '';
  if (deposit.status === 'SUCCEEDED') void claimCredit(deposit.id);
  const open = !FINAL.has(deposit.status);
  $('next-step').hidden = !(open && deposit.redirectUrl);
  if (deposit.redirectUrl) $('pay').href = deposit.redirectUrl;
  $('qr').hidden = !(open && deposit.qrCode);
  if (deposit.qrCode) {
    const image = $('qr-image');
    const source = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(deposit.qrCode.svg)}`;
    if (image.getAttribute('src') !== source) image.src = source;
    image.alt = `Thai QR code for ${deposit.amount.amount} ${deposit.amount.currency}`;
    $('qr-expires').dateTime = deposit.qrCode.expiresAt;
    $('qr-expires').textContent = new Date(deposit.qrCode.expiresAt).toLocaleString();
  }
}

/**
 * Each deposit's claim key, made once per page: a claim sent again after its answer was lost (a
 * network error, a time-out) is the same claim, and is told again whether it won. A page loaded
 * anew makes a new key, so a reload never credits twice.
 */
const claimKeys = new Map();

/**
 * A SUCCEEDED deposit's credit, claimed from the gateway: the one answer with firstClaim: true is
 * where a real cashier credits the player's wallet; every other answer says it was done already.
 */
async function claimCredit(id) {
  if (claiming.has(id)) return;
  claiming.add(id);
  const claimKey = claimKeys.get(id) ?? `credit-${id}-${crypto.randomUUID()}`;
  claimKeys.set(id, claimKey);
  try {
    const { claim, userErrors } = (await request(ClaimDepositCredit, { input: { depositId: id, claimKey } })).claimDepositCredit;
    if (!claim) return showErrors(userErrors.map((error) => `Credit: ${error.message} (${error.code})`));
    if (current?.id !== id) return;
    const at = new Date(claim.claimedAt).toLocaleTimeString();
    $('credit').hidden = false;
    $('credit').dataset.firstClaim = String(claim.firstClaim);
    $('credit').textContent = claim.firstClaim ? `Credited once: the player's wallet was credited now (${at}).` : `Credited once, at ${at}: not credited again.`;
  } catch (error) {
    claiming.delete(id);
    showErrors([`Could not claim the credit: ${describe(error)}`]);
  }
}

function start(deposit) {
  current?.stop();
  current = undefined;
  $('timeline').replaceChildren();
  history.replaceState(null, '', `#${deposit.id}`);
  watch(deposit.id);
  record(deposit, 'created');
}

function showErrors(messages) {
  $('errors').append(
    ...messages.map((message) => {
      const paragraph = document.createElement('p');
      paragraph.textContent = message;
      return paragraph;
    }),
  );
}

function describe(error) {
  if (error instanceof Error) return error.message;
  if (error && typeof error === 'object' && 'code' in error) return `socket closed (${error.code}${error.reason ? `: ${error.reason}` : ''})`;
  if (Array.isArray(error)) return error.map((item) => item.message).join('; ');
  return String(error);
}

/** A fresh idempotency key per attempt: pressing the button twice makes two deposits, a retried request one. */
function attemptKey() {
  return Array.from(crypto.getRandomValues(new Uint8Array(12)), (byte) => byte.toString(16).padStart(2, '0')).join('');
}

form.addEventListener('submit', async (event) => {
  event.preventDefault();
  const rail = RAILS[railField.value];
  const key = attemptKey();
  const common = { amount: amountField.value.trim(), idempotencyKey: `example-${key}`, merchantReference: `example-order-${key.slice(0, 8)}` };
  const [operation, field, variables] = rail.qr
    ? [CreateQrCode, 'createQrCode', { input: { ...common, ...rail.qr } }]
    : [CreateDeposit, 'createDeposit', { input: { ...common, ...rail.input } }];
  $('request').textContent = JSON.stringify(variables, null, 2);
  $('errors').replaceChildren();
  // The previous deposit leaves the screen: what follows is about the new attempt alone.
  current?.stop();
  current = undefined;
  $('deposit').hidden = true;
  $('credit').hidden = true;
  history.replaceState(null, '', location.pathname);
  $('create').disabled = true;
  try {
    const payload = (await request(operation, variables))[field];
    showErrors(payload.userErrors.map((error) => `${error.field?.join('.') ?? 'input'}: ${error.message} (${error.code})`));
    if (payload.deposit) start(payload.deposit);
  } catch (error) {
    showErrors([describe(error)]);
  } finally {
    $('create').disabled = false;
  }
});

railField.addEventListener('change', () => {
  amountField.value = RAILS[railField.value].amount;
  $('currency').textContent = RAILS[railField.value].currency;
});

authorizationField.addEventListener('change', () => void showViewer());

async function showViewer() {
  if (!authorization()) {
    $('viewer').textContent = 'Paste a cashier API key to start.';
    return;
  }
  try {
    const { viewer, merchantAccounts } = await request(CashierContext, {});
    const accounts = merchantAccounts.map((account) => `${account.code} (${account.livemode ? 'live' : 'test'})`).join(', ');
    $('viewer').textContent = `As ${viewer.name} · merchant accounts: ${accounts}`;
  } catch (error) {
    $('viewer').textContent = `The key was refused: ${describe(error)}`;
  }
}

for (const [value, rail] of Object.entries(RAILS)) railField.append(new Option(`${rail.label} · ${rail.currency}`, value));
railField.dispatchEvent(new Event('change'));
authorizationField.value = document.querySelector('meta[name="authorization"]').content;
void showViewer();
// Back from a payment page in this tab, or reloaded: follow the deposit named in the address.
if (/^#dep_[\w-]+$/.test(location.hash)) watch(location.hash.slice(1));
