// The example cashier (GET /examples/cashier) in a real browser, the system Chromium driven by
// playwright-core: a player picks a rail, creates a deposit, pays on the sandbox's payment page in a
// second tab, and the cashier shows each status change as graphql-ws delivers it, up to SUCCEEDED;
// a Thai QR deposit shows a code that scans to the deposit's payload. Without Chromium the browser
// tests are skipped on a developer's machine and fail in CI (CI=true), where .ci/run installs it.

import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import jsQRModule from 'jsqr';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DepositDocument } from '../../client/generated/graphql.js';
import { PAYMENT_EVENTS_TOPIC } from '../../src/kernel/events/event-notification.js';
import { CreditEventsQuery } from '../deposits/operations.js';
import { SimulateQrPaymentMutation } from '../qr/operations.js';
import { execute, startTestGateway, type TestGateway } from '../support/gateway.js';
import { launchChromium, skipWithoutChromium } from '../support/chromium.js';

// jsqr is CommonJS: its function is the module itself under Node, `default` under vite's interop.
const jsQR = ((jsQRModule as unknown as { default?: typeof jsQRModule }).default ?? jsQRModule) as unknown as typeof import('jsqr').default;

const SCREENSHOTS = path.resolve(import.meta.dirname, '../../test-results');


describe.skipIf(skipWithoutChromium("the example cashier's browser tests"))('example cashier in Chromium', () => {
  let t: TestGateway;
  let browser: BrowserContext;
  let userDataDir: string;

  beforeAll(async () => {
    userDataDir = await mkdtemp(path.join(tmpdir(), 'cashier-chromium-'));
    [t, browser] = await Promise.all([
      // Real time in the sandboxes (a Thai QR code lives its full 15 minutes, as for a player), and
      // no automatic completion: the player's press of Pay is what completes a payment.
      startTestGateway({ env: { SANDBOX_TIME_SCALE: '1', SANDBOX_AUTO_COMPLETE: 'false' } }),
      launchChromium(userDataDir, { width: 720, height: 900 }),
    ]);
    await mkdir(SCREENSHOTS, { recursive: true });
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
    if (userDataDir) await rm(userDataDir, { recursive: true, force: true });
  });

  /** Opens the cashier, signed in with the demo web-cashier key the gateway puts in the page for loopback clients. */
  async function openCashier(): Promise<{ page: Page; frames: string[] }> {
    const page = await browser.newPage();
    const frames: string[] = [];
    page.on('websocket', (socket) => socket.on('framereceived', (frame) => frames.push(String(frame.payload))));
    await page.goto(`${t.gateway.url}/examples/cashier`);
    await expect.poll(() => page.textContent('#viewer')).toContain('web-cashier (demo)');
    return { page, frames };
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
});
