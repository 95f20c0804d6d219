// The example cashier (GET /examples/cashier) in a real browser, the system Chromium driven by
// playwright-core: a player picks a rail, creates a deposit, pays on the sandbox's payment page in a
// second tab, and the cashier shows each status change as graphql-ws delivers it, up to SUCCEEDED;
// a Thai QR deposit shows a code that scans to the deposit's payload; a card deposit is paid in the
// provider's card form on the page itself, and the result page leads back to the cashier; hosted
// checkout goes to a live-mode account of the key's, or says there is none; a deposit opened from
// the address shows its own rail; and the page fits a 320 px phone as well as a 1280 px screen.
// Without Chromium the browser tests are skipped on a developer's machine and fail in CI (CI=true),
// where .ci/run installs it.

import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import jsQRModule from 'jsqr';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DepositDocument } from '../../client/generated/graphql.js';
import { PAYMENT_EVENTS_TOPIC } from '../../src/kernel/events/event-notification.js';
import { Deposit } from '../../src/modules/deposits/deposit.entity.js';
import { TEST_CARD } from '../card-form/shopper.js';
import { CARD_INPUT } from '../deposits/fixtures.js';
import { CreateDepositMutation, CreditEventsQuery } from '../deposits/operations.js';
import { CreateApiClientMutation } from '../foundation/operations.js';
import { SimulateQrPaymentMutation } from '../qr/operations.js';
import { execute, startTestGateway, type TestGateway } from '../support/gateway.js';
import { launchChromium, skipWithoutChromium } from '../support/chromium.js';

// jsqr is CommonJS: its function is the module itself under Node, `default` under vite's interop.
const jsQR = ((jsQRModule as unknown as { default?: typeof jsQRModule }).default ?? jsQRModule) as unknown as typeof import('jsqr').default;

const SCREENSHOTS = path.resolve(import.meta.dirname, '../../test-results');

/**
 * The sandbox's test accounts and a live-mode one, which hosted checkout needs. Its code is not the
 * one the docs use as an example: the cashier must find it in merchantAccounts, not know it.
 */
const LIVE_ACCOUNT = 'dg-live-eu';
const ACCOUNTS = [
  { code: 'dg-test', provider: 'deposit-gateway', livemode: false, sandbox: true, apiKey: 'svc_test_sandbox_deposit_gateway', webhookSecrets: ['whsec_sandbox_deposit_gateway'] },
  { code: LIVE_ACCOUNT, provider: 'deposit-gateway', livemode: true, sandbox: true, apiKey: 'svc_live_sandbox_cashier_live', webhookSecrets: ['whsec_sandbox_cashier_live'] },
  { code: 'qr-test', provider: 'qr-gateway', livemode: false, sandbox: true, apiKey: 'sk_test_sandbox_qr_gateway', webhookSecrets: ['whsec_sandbox_qr_gateway'] },
];


describe.skipIf(skipWithoutChromium("the example cashier's browser tests"))('example cashier in Chromium', () => {
  let t: TestGateway;
  let browser: BrowserContext;
  let userDataDir: string;

  beforeAll(async () => {
    userDataDir = await mkdtemp(path.join(tmpdir(), 'cashier-chromium-'));
    [t, browser] = await Promise.all([
      // Real time in the sandboxes (a Thai QR code lives its full 15 minutes, as for a player), and
      // no automatic completion: the player's press of Pay is what completes a payment.
      startTestGateway({ env: { SANDBOX_TIME_SCALE: '1', SANDBOX_AUTO_COMPLETE: 'false', MERCHANT_ACCOUNTS: JSON.stringify(ACCOUNTS) } }),
      launchChromium(userDataDir, { width: 720, height: 900 }),
    ]);
    await mkdir(SCREENSHOTS, { recursive: true });
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
    if (userDataDir) await rm(userDataDir, { recursive: true, force: true });
  });

  /**
   * Opens the cashier (at `address`, e.g. `#dep_…`), signed in with the demo web-cashier key the
   * gateway puts in the page for loopback clients, at the context's viewport or `viewport`.
   */
  async function openCashier(address = '', viewport?: { width: number; height: number }): Promise<{ page: Page; frames: string[] }> {
    const page = await browser.newPage();
    if (viewport) await page.setViewportSize(viewport);
    const frames: string[] = [];
    page.on('websocket', (socket) => socket.on('framereceived', (frame) => frames.push(String(frame.payload))));
    await page.goto(`${t.gateway.url}/examples/cashier${address}`);
    await expect.poll(() => page.textContent('#viewer')).toContain('web-cashier (demo)');
    return { page, frames };
  }

  /** Opens the cashier on a deposit, as a reload or a way back does, once the page follows it over graphql-ws. */
  async function openOnDeposit(id: string): Promise<{ page: Page; frames: string[] }> {
    const pubsub = t.gateway.services.pubsub;
    const before = pubsub.subscriptionsOpened(PAYMENT_EVENTS_TOPIC);
    const opened = await openCashier(`#${id}`);
    await opened.page.waitForSelector('#timeline li', { timeout: 15_000 });
    await expect.poll(() => pubsub.subscriptionsOpened(PAYMENT_EVENTS_TOPIC), { interval: 20 }).toBeGreaterThan(before);
    return opened;
  }

  /** A CARD deposit made by the demo web-cashier key over the API, as the cashier would. */
  async function createCardDeposit(): Promise<string> {
    const created = await execute(t.gateway.graphqlUrl, CreateDepositMutation, { input: CARD_INPUT }, { key: t.keys.webCashier });
    expect(created.errors).toBeUndefined();
    expect(created.data!.createDeposit.userErrors).toEqual([]);
    return created.data!.createDeposit.deposit!.id;
  }

  /** Waits for the provider's card fields in the cashier's card form, framed by the provider's loader. */
  async function cardFields(page: Page) {
    const frame = await page.waitForSelector('#card-fields iframe', { timeout: 15_000 });
    const fields = (await frame.contentFrame())!;
    const pay = await fields.waitForSelector('button.pay', { timeout: 15_000 });
    return { frame, fields, pay };
  }

  /** Creates a deposit on the page and waits until the gateway has registered the page's subscription. */
  async function createDeposit(page: Page, rail: string): Promise<string> {
    const pubsub = t.gateway.services.pubsub;
    const before = pubsub.subscriptionsOpened(PAYMENT_EVENTS_TOPIC);
    await page.selectOption('#rail', rail);
    await page.click('#create');
    await page.waitForSelector('#deposit:not([hidden])', { timeout: 15_000 });
    await expect.poll(() => pubsub.subscriptionsOpened(PAYMENT_EVENTS_TOPIC), { interval: 20 }).toBeGreaterThan(before);
    return (await page.textContent('#deposit-id'))!;
  }

  /** The status lines on the page, oldest first, each with how it arrived. */
  function timeline(page: Page): Promise<string[]> {
    return page.$$eval('#timeline li', (lines) => lines.map((line) => `${(line as HTMLElement).dataset.status} ${(line as HTMLElement).dataset.via}`));
  }

  /** The graphql-ws `next` messages the page received for this deposit, as statuses. */
  function liveStatuses(frames: string[], id: string): string[] {
    return frames
      .map((frame) => JSON.parse(frame) as { type: string; payload?: { data?: { depositUpdated?: { id: string; status: string } } } })
      .filter((message) => message.type === 'next' && message.payload?.data?.depositUpdated?.id === id)
      .map((message) => message.payload!.data!.depositUpdated!.status);
  }

  it('a PIX deposit: the player pays on the payment page and the cashier shows SUCCEEDED as it arrives', async () => {
    // Given the cashier, with the demo key filled in
    const { page, frames } = await openCashier();

    // When the player takes a PIX deposit
    const id = await createDeposit(page, 'PIX');
    expect(await page.textContent('#status')).toBe('PENDING');
    expect(await page.textContent('#deposit-amount')).toBe('50.00 BRL');
    expect(await timeline(page)).toEqual(['PENDING created']);

    // and pays on the payment page, which opens in a second tab
    const [payment] = await Promise.all([browser.waitForEvent('page'), page.click('#pay')]);
    await payment.waitForLoadState();
    expect(new URL(payment.url()).origin).toBe(new URL(t.gateway.sandboxes.get('deposit-gateway')!.checkoutUrl).origin);
    expect(await payment.textContent('body')).toContain('50.00');
    await Promise.all([payment.waitForNavigation(), payment.click('button:has-text("Pay")')]);
    await payment.close();

    // Then the cashier shows SUCCEEDED, delivered over graphql-ws, and no payment link any more
    await page.waitForSelector('#timeline li[data-status="SUCCEEDED"]', { timeout: 15_000 });
    expect(await timeline(page)).toEqual(['PENDING created', 'SUCCEEDED live']);
    expect(liveStatuses(frames, id)).toContain('SUCCEEDED');
    expect(await page.textContent('#status')).toBe('SUCCEEDED');
    expect(await page.isHidden('#next-step')).toBe(true);
    const read = await execute(t.gateway.graphqlUrl, DepositDocument, { id }, { key: t.keys.webCashier });
    expect(read.errors).toBeUndefined();
    expect(read.data!.deposit!.status).toBe('SUCCEEDED');

    // and credits the player once: this page made the claim ...
    await page.waitForSelector('#credit:not([hidden])', { timeout: 10_000 });
    expect(await page.getAttribute('#credit', 'data-first-claim')).toBe('true');
    expect(await page.textContent('#credit')).toContain('Credited once');
    await page.screenshot({ path: path.join(SCREENSHOTS, 'cashier.png'), fullPage: true });

    // ... and a reload, which hears of the same SUCCEEDED again, does not credit again
    await page.reload();
    await page.waitForSelector('#credit:not([hidden])', { timeout: 15_000 });
    expect(await page.getAttribute('#credit', 'data-first-claim')).toBe('false');
    expect(await page.textContent('#credit')).toMatch(/^Credited once, at .*: not credited again\.$/);
    const claims = await execute(t.gateway.graphqlUrl, CreditEventsQuery, { first: 100 }, { key: t.keys.webCashier });
    expect(claims.data!.events.edges.filter((edge) => edge.node.subjectId === id && edge.node.type === 'deposit.credit_claimed')).toHaveLength(1);
    await page.close();
  });

  it('a Thai QR deposit: the cashier shows a code that scans to the deposit\'s payload, then SUCCEEDED live', async () => {
    const { page, frames } = await openCashier();

    const id = await createDeposit(page, 'THAI_QR');
    await page.waitForFunction(() => (document.getElementById('qr-image') as HTMLImageElement | null)?.naturalWidth, null, { timeout: 10_000 });
    expect(await page.isVisible('#qr-image')).toBe(true);
    expect(await page.textContent('#deposit-amount')).toBe('150.00 THB');

    // The image, as the browser drew it, scans to the payload the gateway holds for the deposit.
    const image = await page.evaluate(() => {
      const element = document.getElementById('qr-image') as HTMLImageElement;
      const canvas = document.createElement('canvas');
      canvas.width = 480;
      canvas.height = 480;
      const context = canvas.getContext('2d')!;
      context.fillStyle = '#fff';
      context.fillRect(0, 0, canvas.width, canvas.height);
      context.drawImage(element, 0, 0, canvas.width, canvas.height);
      // The pixels as base64: far quicker to carry out of the page than a list of numbers.
      const pixels = context.getImageData(0, 0, canvas.width, canvas.height).data;
      let binary = '';
      for (let offset = 0; offset < pixels.length; offset += 0x8000) binary += String.fromCharCode(...pixels.subarray(offset, offset + 0x8000));
      return btoa(binary);
    });
    const scanned = jsQR(new Uint8ClampedArray(Buffer.from(image, 'base64')), 480, 480);
    const read = await execute(t.gateway.graphqlUrl, DepositDocument, { id }, { key: t.keys.webCashier });
    expect(read.errors).toBeUndefined();
    expect(scanned?.data).toBe(read.data!.deposit!.qrCode!.payload);
    await page.screenshot({ path: path.join(SCREENSHOTS, 'cashier-qr.png'), fullPage: true });

    // When the payer's bank pays it (test mode), the cashier shows SUCCEEDED as it arrives and hides the code.
    const paid = await execute(t.gateway.graphqlUrl, SimulateQrPaymentMutation, { input: { depositId: id, outcome: 'SUCCEEDED' } }, { key: t.keys.admin });
    expect(paid.data!.simulateQrPayment.userErrors).toEqual([]);
    await page.waitForSelector('#timeline li[data-status="SUCCEEDED"]', { timeout: 15_000 });
    expect(await timeline(page)).toEqual(['PENDING created', 'SUCCEEDED live']);
    expect(liveStatuses(frames, id)).toContain('SUCCEEDED');
    expect(await page.isHidden('#qr')).toBe(true);
    await page.close();
  });

  it('a deposit the sandbox completes at once, as it does by default in development, still ends SUCCEEDED on the page', async () => {
    // The payment completes while the page is still opening its subscription: the read the page
    // sends after subscribing shows what the subscription could not.
    const controls = t.gateway.sandboxes.get('deposit-gateway')!.controls;
    controls.setAutoComplete(true);
    try {
      const { page } = await openCashier();
      await createDeposit(page, 'UPI');
      await page.waitForSelector('#timeline li[data-status="SUCCEEDED"]', { timeout: 15_000 });
      // On a busy machine the provider's webhook can even commit before createDeposit answers,
      // which then already says SUCCEEDED: the page shows it as created, with nothing older.
      expect(['PENDING SUCCEEDED', 'SUCCEEDED']).toContain((await timeline(page)).map((line) => line.split(' ')[0]).join(' '));
      expect(await page.textContent('#status')).toBe('SUCCEEDED');
      await page.close();
    } finally {
      controls.setAutoComplete(false);
    }
  });

  it('shows the gateway\'s user errors and creates nothing for a bad amount', async () => {
    const { page } = await openCashier();
    await page.selectOption('#rail', 'UPI');
    await page.fill('#amount', '12.345');
    await page.click('#create');
    await page.waitForSelector('#errors p', { timeout: 10_000 });
    expect(await page.textContent('#errors')).toMatch(/amount/i);
    expect(await page.isHidden('#deposit')).toBe(true);
    await page.close();
  });

  it('a card deposit: the player pays in the card form on the page, the result page leads back, and the cashier shows SUCCEEDED, credited once', async () => {
    // Given the cashier, and the player's card deposit: paid on this page, with no payment page to open
    const { page } = await openCashier();
    const id = await createDeposit(page, 'CARD');
    expect(await page.textContent('#deposit-amount')).toBe('25.00 EUR');
    const { frame, fields } = await cardFields(page);
    expect(await page.isVisible('#card')).toBe(true);
    expect(await page.isHidden('#next-step')).toBe(true);
    // The card fields are the provider's, in its own frame: the card never passes through the page.
    expect(new URL((await frame.getAttribute('src'))!).origin).toBe(new URL(t.gateway.sandboxes.get('deposit-gateway')!.checkoutUrl).origin);
    // and a second tab of the cashier follows the same deposit
    const watcher = await openOnDeposit(id);

    // When the player pays with the sandbox's test card
    await fields.fill('#card_number', TEST_CARD.number);
    await fields.fill('#card_expiry', TEST_CARD.expiry);
    await fields.fill('#card_cvv', TEST_CARD.cvv);
    await Promise.all([page.waitForURL(/\/card-form\/return\//, { timeout: 15_000 }), fields.click('button.pay')]);

    // Then the result page says the payment went through and links back to the cashier, on the deposit
    expect(await page.textContent('h1')).toBe('Payment received');
    const back = page.locator('a', { hasText: 'Back to the cashier' });
    expect(await back.getAttribute('href')).toBe(`/examples/cashier#${id}`);
    // and the cashier watching the deposit saw SUCCEEDED arrive over graphql-ws
    await watcher.page.waitForSelector('#timeline li[data-status="SUCCEEDED"]', { timeout: 15_000 });
    expect(await timeline(watcher.page)).toEqual(['PENDING read', 'SUCCEEDED live']);
    expect(liveStatuses(watcher.frames, id)).toContain('SUCCEEDED');

    // When the player follows the link back
    await Promise.all([page.waitForURL(`${t.gateway.url}/examples/cashier#${id}`), back.click()]);

    // Then the cashier shows the card deposit SUCCEEDED, on the card rail, and no card form any more
    await page.waitForSelector('#status[data-status="SUCCEEDED"]', { timeout: 15_000 });
    expect(await page.inputValue('#rail')).toBe('CARD');
    expect(await page.textContent('#deposit-id')).toBe(id);
    expect(await page.isHidden('#card')).toBe(true);
    const read = await execute(t.gateway.graphqlUrl, DepositDocument, { id }, { key: t.keys.webCashier });
    expect(read.data!.deposit!).toMatchObject({ status: 'SUCCEEDED', rail: 'CARD' });
    // and the player was credited once, whichever tab claimed it first
    for (const tab of [page, watcher.page]) await tab.waitForSelector('#credit:not([hidden])', { timeout: 15_000 });
    expect(await page.textContent('#credit')).toContain('Credited once');
    const claims = await execute(t.gateway.graphqlUrl, CreditEventsQuery, { first: 100 }, { key: t.keys.webCashier });
    expect(claims.data!.events.edges.filter((edge) => edge.node.subjectId === id && edge.node.type === 'deposit.credit_claimed')).toHaveLength(1);
    await Promise.all([page.close(), watcher.page.close()]);
  });

  it('a deposit opened from the address shows its own rail in the form, not the first rail of the list', async () => {
    // Given a card deposit, while PIX heads the list of rails
    const id = await createCardDeposit();

    // When the cashier opens it from the address, as after a reload
    const { page } = await openOnDeposit(id);

    // Then the form shows the card rail and its currency, above the card deposit and its card form
    expect(await page.$eval('#rail option', (option) => (option as HTMLOptionElement).value)).toBe('PIX');
    await expect.poll(() => page.inputValue('#rail')).toBe('CARD');
    expect(await page.textContent('#currency')).toBe('EUR');
    expect(await page.textContent('#deposit-rail')).toBe('CARD');
    await cardFields(page);
    await page.close();

    // and so for a deposit the gateway sends the player back to, at a returnUrl with ?deposit=&status=
    const upi = await execute(t.gateway.graphqlUrl, CreateDepositMutation, { input: { amount: '500.00', customer: { email: 'ana@example.com', firstName: 'Ana', lastName: 'Silva', phone: '+919812345678', personalId: 'ana@okhdfc' }, upi: {} } }, { key: t.keys.webCashier });
    expect(upi.errors).toBeUndefined();
    const upiId = upi.data!.createDeposit.deposit!.id;
    const returned = await openCashier(`?deposit=${upiId}&status=PENDING`);
    await returned.page.waitForSelector('#timeline li', { timeout: 15_000 });
    expect(await returned.page.textContent('#deposit-id')).toBe(upiId);
    await expect.poll(() => returned.page.inputValue('#rail')).toBe('UPI');
    expect(new URL(returned.page.url()).search).toBe('');
    expect(new URL(returned.page.url()).hash).toBe(`#${upiId}`);
    await returned.page.close();
  });

  it('hosted checkout goes to a live-mode account the key may use, found in merchantAccounts, and is paid on the provider\'s page', async () => {
    // Given the cashier, whose key may use a live-mode account
    const { page } = await openCashier();

    // When the player picks hosted checkout
    await page.selectOption('#rail', 'HOSTED_CHECKOUT');

    // Then the page names the live account it will use, and the deposit is made on it
    expect(await page.textContent('#rail-note')).toBe(`Uses the live-mode merchant account ${LIVE_ACCOUNT}.`);
    const id = await createDeposit(page, 'HOSTED_CHECKOUT');
    expect(await page.textContent('#status')).toBe('PENDING');
    expect(await page.isVisible('#pay')).toBe(true);
    expect(JSON.parse((await page.textContent('#request'))!)).toMatchObject({ input: { merchantAccount: LIVE_ACCOUNT, hostedCheckout: { expiresInSeconds: 900 } } });
    expect((await t.gateway.db.fork().findOneOrFail(Deposit, { id })).merchantAccount).toBe(LIVE_ACCOUNT);

    // and when the player pays on the provider's checkout page, in a second tab, the cashier shows SUCCEEDED as it arrives
    const [checkout] = await Promise.all([browser.waitForEvent('page'), page.click('#pay')]);
    await checkout.waitForLoadState();
    await Promise.all([checkout.waitForNavigation(), checkout.click('button:has-text("Pay")')]);
    await checkout.close();
    await page.waitForSelector('#timeline li[data-status="SUCCEEDED"]', { timeout: 15_000 });
    expect(await timeline(page)).toEqual(['PENDING created', 'SUCCEEDED live']);
    await page.close();
  });

  it('says so, and creates nothing, when the key may use no live-mode account for hosted checkout', async () => {
    // Given a cashier key held to the test-mode accounts
    const name = `cashier-test-accounts-${Date.now()}`;
    const created = await execute(t.gateway.graphqlUrl, CreateApiClientMutation, { input: { name, roles: ['CASHIER'], merchantAccounts: ['dg-test', 'qr-test'] } }, { key: t.keys.admin });
    expect(created.errors).toBeUndefined();
    expect(created.data!.createApiClient.userErrors).toEqual([]);
    const { page } = await openCashier();
    await page.fill('#authorization', created.data!.createApiClient.key!);
    await page.dispatchEvent('#authorization', 'change');
    await expect.poll(() => page.textContent('#viewer')).toBe(`As ${name} · merchant accounts: dg-test (test), qr-test (test)`);

    // When the player picks hosted checkout
    await page.selectOption('#rail', 'HOSTED_CHECKOUT');

    // Then the page says it needs a live-mode account this key may not use, and will not send the deposit
    expect(await page.textContent('#rail-note')).toContain('This rail needs a live-mode merchant account, and this key may use none that serves it');
    expect(await page.isDisabled('#create')).toBe(true);
    await page.press('#amount', 'Enter');
    expect(await page.textContent('#request')).toBe('');
    expect(await page.isHidden('#deposit')).toBe(true);

    // and the other rails are still there for the key
    await page.selectOption('#rail', 'PIX');
    expect(await page.isEnabled('#create')).toBe(true);
    expect(await page.textContent('#rail-note')).toBe('');
    await page.close();
  });

  it.each([320, 1280])('fits a %i px wide screen: no sideways scroll, and the controls are in view and work', async (width) => {
    const inView = async (page: Page, selector: string) => {
      expect(await page.isVisible(selector), selector).toBe(true);
      const box = (await page.locator(selector).boundingBox())!;
      expect(box.x, selector).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width, selector).toBeLessThanOrEqual(width);
      return box;
    };
    const noSidewaysScroll = async (page: Page, when: string) => {
      expect(await page.evaluate(() => document.documentElement.scrollWidth), when).toBeLessThanOrEqual(width);
    };

    // Given the cashier on a screen this wide
    const { page } = await openCashier('', { width, height: 800 });
    await noSidewaysScroll(page, 'opened');
    for (const control of ['#authorization', '#rail', '#amount', '#create']) {
      const box = await inView(page, control);
      expect(box.width, control).toBeGreaterThanOrEqual(Math.min(width - 64, 480));
    }
    if (width === 1280) {
      // A column of its own width in the middle of a wide screen, not stretched across it.
      const main = (await page.locator('main').boundingBox())!;
      const right = await page.evaluate(() => document.documentElement.clientWidth);
      expect(main.width).toBeGreaterThanOrEqual(480);
      expect(main.width).toBeLessThanOrEqual(640);
      expect(Math.abs(main.x - (right - main.x - main.width))).toBeLessThanOrEqual(1);
    }

    // When the player uses them: the widest things the page shows, the request sent, a card deposit and its card form
    await page.click('summary');
    await createDeposit(page, 'CARD');
    const { frame, pay } = await cardFields(page);

    // Then nothing is wider than the screen, and the card form's Pay button is whole, in view
    await noSidewaysScroll(page, 'with a card deposit');
    await inView(page, '#deposit-id');
    await inView(page, '#request');
    const frameBox = await inView(page, '#card-fields iframe');
    const payBox = (await pay.boundingBox())!;
    expect(payBox.x).toBeGreaterThanOrEqual(frameBox.x);
    expect(payBox.x + payBox.width).toBeLessThanOrEqual(frameBox.x + frameBox.width);
    await expect.poll(async () => {
      const [frameNow, payNow] = [(await frame.boundingBox())!, (await pay.boundingBox())!];
      return payNow.y + payNow.height <= frameNow.y + frameNow.height;
    }).toBe(true);
    await page.screenshot({ path: path.join(SCREENSHOTS, `cashier-${width}px.png`), fullPage: true });
    await page.close();
  });
});
