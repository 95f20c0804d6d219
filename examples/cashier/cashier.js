// The example cashier: pick a rail, create a deposit, send the player to its payment page, show its
// Thai QR code or the provider's embedded card form, show every status change of the deposit as it
// arrives over graphql-ws, and credit the player exactly once when it SUCCEEDS (claimDepositCredit),
// however often the page hears of it: live, by a read, or after a reload. A dropped socket (a deploy, a restart, a phone
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
import { CardSession, CashierContext, ClaimDepositCredit, CreateDeposit, CreateQrCode, Deposit, DepositUpdated } from './operations.js';

const named = { email: 'ana@example.com', firstName: 'Ana', lastName: 'Silva' };
const billing = { ...named, country: 'NL', address1: 'Damrak 1', city: 'Amsterdam', zipCode: '1012LG', phone: '+31201234567' };

/**
 * The rails offered, by the deposit's `rail`, each with the sandbox's sample player. The amount
 * comes from the form. `liveOnly`: the rail needs a live-mode merchant account, picked from the
 * accounts the key may use (merchantAccounts).
 */
const RAILS = {
  PIX: { label: 'PIX (Brazil)', currency: 'BRL', amount: '50.00', input: { customer: { ...named, phone: '+5511912345678', personalId: '52998224725' }, pix: {} } },
  CARD: { label: 'Card (form on this page)', currency: 'EUR', amount: '25.00', input: { customer: billing, card: {} } },
  UPI: { label: 'UPI (India)', currency: 'INR', amount: '500.00', input: { customer: { ...named, phone: '+919812345678', personalId: 'ana@okhdfc' }, upi: {} } },
  OPEN_BANKING: { label: 'Open banking (SEPA)', currency: 'EUR', amount: '40.00', input: { customer: billing, openBanking: { method: 'sepa', bankCountry: 'NL' } } },
  LATAM: { label: 'LATAM (Mexico)', currency: 'MXN', amount: '500', input: { customer: { ...named, documentType: 'CURP', documentNumber: 'GODE561231HDFRRN04' }, latam: { country: 'MEXICO' } } },
  CRYPTO: { label: 'Crypto', currency: 'USD', amount: '20.00', input: { currency: 'USD', customer: named, crypto: {} } },
  HOSTED_CHECKOUT: { label: 'Hosted checkout (live)', currency: 'EUR', amount: '30.00', liveOnly: true, input: { customer: { email: named.email }, hostedCheckout: { expiresInSeconds: 900 } } },
  THAI_QR: { label: 'Thai QR code', currency: 'THB', amount: '150.00', qr: { payer: { name: 'Somchai Jaidee', bankName: 'Kasikornbank', bankAccount: '1234567890' } } },
};

/** Statuses after which nothing happens to a deposit but a refund. */
const FINAL = new Set(['SUCCEEDED', 'DECLINED', 'FAILED', 'EXPIRED', 'CANCELLED', 'REFUNDED']);

const $ = (id) => document.getElementById(id);
const form = $('deposit-form');
const authorizationField = $('authorization');
const railField = $('rail');
const amountField = $('amount');
const DEPOSIT_ID = /^dep_[\w-]+$/;

/** The merchant accounts the key may use (merchantAccounts), once read; undefined before. */
let accounts;

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
  if (body.errors?.length) throw Object.assign(new Error(body.errors.map((error) => error.message).join('; ')), { errors: body.errors });
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

/**
 * Follows one deposit: its updates on the socket, then one read of where it stands now. `opened`:
 * the deposit comes from the address (a reload, a return from paying), not from this form.
 */
function watch(id, { opened = false } = {}) {
  current?.stop();
  current = { id, last: undefined, opened };
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
  if (current.opened) {
    // The form above shows the rail of the deposit on screen, not the first rail of the list.
    current.opened = false;
    if (RAILS[deposit.rail] && railField.value !== deposit.rail) {
      railField.value = deposit.rail;
      railField.dispatchEvent(new Event('change'));
    }
  }
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
  // A card deposit is paid in the provider's card form on this page, not on a payment page.
  const card = deposit.rail === 'CARD';
  $('next-step').hidden = !(open && deposit.redirectUrl && !card);
  if (deposit.redirectUrl) $('pay').href = deposit.redirectUrl;
  if (card && open && !current.card) current.card = showCardForm(deposit.id);
  $('card').hidden = !(card && open && current.cardShown);
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

/** Codes of an error thrown by request(): GraphQL's `extensions.code` and, where given, its `reason`. */
function codesOf(error) {
  return (error?.errors ?? []).flatMap((item) => [item.extensions?.code, item.extensions?.reason]).filter(Boolean);
}

/**
 * Places the provider's embedded card form for a CARD deposit (README: Embedded card form): its
 * loader script, from cardSession's scriptUrl and WITHOUT an integrity attribute (its hash changes
 * per checkout), turns the form below into the provider's card fields, in a frame of the provider's
 * own. The card goes from the player's browser to the provider; the fields send the player on to
 * the form's action, the gateway's return address, which settles the deposit and shows its result.
 */
async function showCardForm(id) {
  let session;
  for (let attempt = 1; ; attempt += 1) {
    try {
      session = (await request(CardSession, { depositId: id })).cardSession;
      break;
    } catch (error) {
      // Just created, it may not have reached the provider yet, or the provider did not answer: ask again.
      const passing = codesOf(error).some((code) => code === 'DEPOSIT_NOT_SUBMITTED' || code === 'PROVIDER_UNAVAILABLE');
      if (!passing || attempt === 5) return showErrors([`No card form: ${describe(error)}`]);
      await new Promise((resolve) => setTimeout(resolve, attempt * 1_000));
    }
    if (current?.id !== id) return;
  }
  if (current?.id !== id || !session || session.settled || !session.scriptUrl || !session.formAction) return;
  const form = document.createElement('form');
  form.className = 'paymentWidgets';
  form.action = session.formAction;
  form.dataset.brands = session.brands.join(' ');
  $('card-fields').replaceChildren(form);
  // The form is in the document before the script runs: a loader added after the page was parsed mounts at once.
  document.getElementById('card-loader')?.remove();
  const script = document.createElement('script');
  script.id = 'card-loader';
  script.src = session.scriptUrl;
  script.addEventListener('error', () => showErrors([`The card form's script did not load from ${new URL(session.scriptUrl).origin}.`]));
  document.head.append(script);
  current.cardShown = true;
  $('card').hidden = !current.last || FINAL.has(current.last.status);
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

/**
 * The merchant account a rail's deposits name: for a live-only rail, the first live-mode account
 * the key may use whose provider serves the rail (null when there is none, undefined while the
 * accounts are not read yet); for the others, none: the gateway picks the rail's default account.
 */
function accountFor(railName) {
  if (!RAILS[railName].liveOnly) return undefined;
  if (!accounts) return undefined;
  return accounts.find((account) => account.livemode && account.rails.includes(railName)) ?? null;
}

/** Says under the rail which account a live-only rail uses, or that the key may use none, which keeps the button off. */
function describeRail() {
  const rail = RAILS[railField.value];
  const account = accountFor(railField.value);
  const note = $('rail-note');
  const blocked = rail.liveOnly && account === null;
  note.toggleAttribute('data-blocked', blocked);
  if (!rail.liveOnly) note.textContent = '';
  else if (account) note.textContent = `Uses the live-mode merchant account ${account.code}.`;
  else if (account === null) note.textContent = 'This rail needs a live-mode merchant account, and this key may use none that serves it (merchantAccounts lists no such account): configure one in MERCHANT_ACCOUNTS, allowed to this key.';
  else note.textContent = 'Needs a live-mode merchant account: waiting for the key\'s merchant accounts.';
  $('create').disabled = blocked;
}

/**
 * Where the gateway sends the player after the card form, with `?deposit=&status=`: back here. A
 * returnUrl must be https; on plain http (the gateway on this machine) there is none, and the
 * gateway's result page links back here instead.
 */
function cardReturnUrl() {
  return location.protocol === 'https:' ? `${location.origin}${location.pathname}` : undefined;
}

form.addEventListener('submit', async (event) => {
  event.preventDefault();
  const railName = railField.value;
  const rail = RAILS[railName];
  const account = accountFor(railName);
  if (rail.liveOnly && !account) return describeRail();
  const key = attemptKey();
  const common = {
    amount: amountField.value.trim(),
    idempotencyKey: `example-${key}`,
    merchantReference: `example-order-${key.slice(0, 8)}`,
    ...(account ? { merchantAccount: account.code } : {}),
    ...(railName === 'CARD' && cardReturnUrl() ? { returnUrl: cardReturnUrl() } : {}),
  };
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
  $('card').hidden = true;
  $('card-fields').replaceChildren();
  history.replaceState(null, '', location.pathname);
  $('create').disabled = true;
  try {
    const payload = (await request(operation, variables))[field];
    showErrors(payload.userErrors.map((error) => `${error.field?.join('.') ?? 'input'}: ${error.message} (${error.code})`));
    if (payload.deposit) start(payload.deposit);
  } catch (error) {
    showErrors([describe(error)]);
  } finally {
    // On again, unless the rail needs an account the key may not use.
    describeRail();
  }
});

railField.addEventListener('change', () => {
  amountField.value = RAILS[railField.value].amount;
  $('currency').textContent = RAILS[railField.value].currency;
  describeRail();
});

authorizationField.addEventListener('change', () => void showViewer());

async function showViewer() {
  if (!authorization()) {
    $('viewer').textContent = 'Paste a cashier API key to start.';
    return;
  }
  try {
    const { viewer, merchantAccounts } = await request(CashierContext, {});
    accounts = merchantAccounts;
    const listed = merchantAccounts.map((account) => `${account.code} (${account.livemode ? 'live' : 'test'})`).join(', ');
    $('viewer').textContent = `As ${viewer.name} · merchant accounts: ${listed}`;
  } catch (error) {
    accounts = undefined;
    $('viewer').textContent = `The key was refused: ${describe(error)}`;
  }
  describeRail();
}

for (const [value, rail] of Object.entries(RAILS)) railField.append(new Option(`${rail.label} · ${rail.currency}`, value));
railField.dispatchEvent(new Event('change'));
authorizationField.value = document.querySelector('meta[name="authorization"]').content;
void showViewer();
// Back from paying by card, sent by the gateway to the deposit's returnUrl with ?deposit=&status=
// (the status there is a hint only: the page reads the deposit), or back from a payment page in
// this tab, or reloaded: follow the deposit named in the address.
const returned = new URLSearchParams(location.search).get('deposit');
if (returned && DEPOSIT_ID.test(returned)) history.replaceState(null, '', `${location.pathname}#${returned}`);
if (DEPOSIT_ID.test(location.hash.slice(1))) watch(location.hash.slice(1), { opened: true });
