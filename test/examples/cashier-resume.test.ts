// The example cashier across a gateway restart, in Chromium: the page follows a deposit, the gateway
// stops, the deposit is paid while the page is cut off (through a second instance on the same
// database, on another port, so the page cannot reach it), and the gateway starts again on its port
// and database. The page reconnects by itself, its subscription resumes from the last cursor it
// got, and the payment arrives over the socket, without a reload. A cursor the gateway refuses
// (here: older than the replay window) makes the page read the deposit and follow it afresh.

import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DepositDocument } from '../../client/generated/graphql.js';
import { PAYMENT_EVENTS_TOPIC } from '../../src/kernel/events/event-notification.js';
import { RESUME_WINDOW_MS } from '../../src/kernel/events/event-log.js';
import { launchChromium, skipWithoutChromium } from '../support/chromium.js';
import { ManualClock } from '../support/clock.js';
import { createTestDatabase, type TestDatabase } from '../support/database.js';
import { execute, startTestGateway, type TestGateway } from '../support/gateway.js';

/**
 * A backstop, not a wait: each poll returns as soon as the page shows what it waits for. It is above
 * vitest's 30 s default because one wait spans a gateway start (20 to 30 s beside two busy loops)
 * plus the page's reconnect back-off (up to 10 s an attempt); the test's own bound is 180 s.
 */
const PATIENCE = { timeout: 90_000, interval: 100 };

interface Frame {
  direction: 'sent' | 'received';
  message: { type: string; id?: string; payload?: { query?: string; variables?: { id?: string; after?: string }; data?: { depositUpdated?: { id: string; status: string } }; errors?: Array<{ extensions?: { code?: string } }>; extensions?: { cursor?: string } } };
}

describe.skipIf(skipWithoutChromium("the example cashier's resume tests"))('example cashier across a gateway restart', () => {
  let browser: BrowserContext;
  let userDataDir: string;
  let database: TestDatabase | undefined;
  const gateways: TestGateway[] = [];

  beforeAll(async () => {
    userDataDir = await mkdtemp(path.join(tmpdir(), 'cashier-resume-chromium-'));
    browser = await launchChromium(userDataDir, { width: 720, height: 900 });
  });
  afterEach(async () => {
    for (const gateway of gateways.splice(0)) await gateway.gateway.close();
    await database?.drop();
    database = undefined;
  });
  afterAll(async () => {
    await browser?.close();
    if (userDataDir) await rm(userDataDir, { recursive: true, force: true });
  });

  /**
   * A gateway on the test's database. Its sandboxes keep their state on disk (SANDBOX_PERSIST), so
   * the next instance, given the same sandbox ports, takes the payment started on this one. Real
   * time in the sandboxes, so a payment link outlives a slow restart; payments complete only when
   * the player presses a button.
   */
  async function start(env: Record<string, string> = {}, clock?: ManualClock): Promise<TestGateway> {
    database ??= await createTestDatabase();
    const t = await startTestGateway({ database, env: { SANDBOX_TIME_SCALE: '1', SANDBOX_AUTO_COMPLETE: 'false', SANDBOX_PERSIST: 'true', ...env }, ...(clock ? { clock } : {}) });
    gateways.push(t);
    return t;
  }

  /** What a later instance needs to stand where `t` stood: its sandboxes' ports, and with `samePort` its own. */
  function placeOf(t: TestGateway, samePort: boolean): Record<string, string> {
    return {
      ...(samePort ? { PORT: new URL(t.gateway.url).port } : {}),
      DEPOSIT_GATEWAY_SANDBOX_PORT: new URL(t.gateway.sandboxes.get('deposit-gateway')!.checkoutUrl).port,
      QR_GATEWAY_SANDBOX_PORT: new URL(t.gateway.sandboxes.get('qr-gateway')!.baseUrl).port,
    };
  }

  /** Opens the cashier and takes a PIX deposit, once the gateway holds the page's subscription. Records every graphql-ws frame. */
  async function followNewDeposit(t: TestGateway): Promise<{ page: Page; frames: Frame[]; id: string; redirectUrl: string }> {
    const page = await browser.newPage();
    const frames: Frame[] = [];
    page.on('websocket', (socket) => {
      socket.on('framesent', (frame) => frames.push({ direction: 'sent', message: JSON.parse(String(frame.payload)) as Frame['message'] }));
      socket.on('framereceived', (frame) => frames.push({ direction: 'received', message: JSON.parse(String(frame.payload)) as Frame['message'] }));
    });
    await page.goto(`${t.gateway.url}/examples/cashier`);
    await expect.poll(() => page.textContent('#viewer')).toContain('web-cashier (demo)');
    // Gone if the page is ever loaded again: what follows must reach this very document.
    await page.evaluate(() => Object.assign(window, { sameDocument: true }));
    const pubsub = t.gateway.services.pubsub;
    const before = pubsub.subscriptionsOpened(PAYMENT_EVENTS_TOPIC);
    await page.selectOption('#rail', 'PIX');
    await page.click('#create');
    await page.waitForSelector('#deposit:not([hidden])', { timeout: 15_000 });
    await expect.poll(() => pubsub.subscriptionsOpened(PAYMENT_EVENTS_TOPIC), { interval: 20 }).toBeGreaterThan(before);
    return { page, frames, id: (await page.textContent('#deposit-id'))!, redirectUrl: (await page.getAttribute('#pay', 'href'))! };
  }

  /** What the player's button on the sandbox's payment page posts. */
  async function press(redirectUrl: string, action: 'authorize' | 'pay'): Promise<void> {
    const response = await fetch(`${redirectUrl}/${action}`, { method: 'POST', redirect: 'manual' });
    expect(response.status, `${action} on the payment page`).toBe(303);
  }

  function timeline(page: Page): Promise<string[]> {
    return page.$$eval('#timeline li', (lines) => lines.map((line) => `${(line as HTMLElement).dataset.status} ${(line as HTMLElement).dataset.via}`));
  }

  function status(t: TestGateway, id: string): Promise<string | undefined> {
    return execute(t.gateway.graphqlUrl, DepositDocument, { id }, { key: t.keys.webCashier }).then((response) => response.data?.deposit?.status);
  }

  /** The cursors of the deposit's messages the page received, oldest first. */
  function cursors(frames: Frame[], id: string): string[] {
    return frames.filter((frame) => frame.direction === 'received' && frame.message.type === 'next' && frame.message.payload?.data?.depositUpdated?.id === id).map((frame) => frame.message.payload!.extensions!.cursor!);
  }

  /** The depositUpdated subscriptions the page sent for the deposit, in order, with the cursor each resumed from. */
  function subscribes(frames: Frame[], id: string): Array<string | undefined> {
    const subscription = (frame: Frame) => frame.message.payload?.query?.startsWith('subscription DepositUpdated') && frame.message.payload.variables?.id === id;
    return frames.filter((frame) => frame.direction === 'sent' && frame.message.type === 'subscribe' && subscription(frame)).map((frame) => frame.message.payload!.variables!.after);
  }

  /**
   * Given the cashier following a PIX deposit the player has authorised (a message with a cursor
   * reached the page), when the gateway stops, the player pays through a second instance on the
   * same database and that instance stops too: the page, still cut off, has not seen the payment.
   */
  async function payWhileTheGatewayIsDown(): Promise<{ first: TestGateway; page: Page; frames: Frame[]; id: string; lastCursor: string }> {
    const first = await start();
    const { page, frames, id, redirectUrl } = await followNewDeposit(first);
    await press(redirectUrl, 'authorize');
    await page.waitForSelector('#timeline li[data-status="AUTHORIZED"]', { timeout: 30_000 });
    expect(await timeline(page)).toEqual(['PENDING created', 'AUTHORIZED live']);
    const lastCursor = cursors(frames, id).at(-1);
    expect(lastCursor).toEqual(expect.any(String));

    await first.gateway.close();
    await expect.poll(() => page.textContent('#connection'), PATIENCE).toBe('· reconnecting…');
    const second = await start(placeOf(first, false));
    await press(redirectUrl, 'pay');
    await expect.poll(() => status(second, id), PATIENCE).toBe('SUCCEEDED');
    await second.gateway.close();
    expect(await timeline(page)).toEqual(['PENDING created', 'AUTHORIZED live']);
    return { first, page, frames, id, lastCursor: cursors(frames, id).at(-1)! };
  }

  it('resumes its subscription from the last cursor when the gateway is back, and shows the payment made meanwhile as it arrives', async () => {
    const { first, page, frames, id, lastCursor } = await payWhileTheGatewayIsDown();

    // when: the gateway starts again on its port and database
    const third = await start(placeOf(first, true));
    expect(third.gateway.url).toBe(first.gateway.url);

    // then: the page, not reloaded, subscribes again from its last cursor and is sent the payment
    await page.waitForSelector('#timeline li[data-status="SUCCEEDED"]', PATIENCE);
    expect(await timeline(page)).toEqual(['PENDING created', 'AUTHORIZED live', 'SUCCEEDED live']);
    expect(await page.textContent('#status')).toBe('SUCCEEDED');
    expect(await page.textContent('#connection')).toBe('· live');
    expect(await page.evaluate(() => (window as { sameDocument?: boolean }).sameDocument)).toBe(true);
    expect(subscribes(frames, id)).toEqual([undefined, lastCursor]);
    // and it credits the player, once
    await page.waitForSelector('#credit:not([hidden])', { timeout: 30_000 });
    expect(await page.getAttribute('#credit', 'data-first-claim')).toBe('true');
    await page.close();
  });

  it('reads the deposit and follows it without a cursor when the gateway refuses its cursor as too old', async () => {
    const { first, page, frames, id, lastCursor } = await payWhileTheGatewayIsDown();

    // when: the gateway starts again on its port, with its clock past the cursor's replay window
    const clock = new ManualClock();
    clock.advance(RESUME_WINDOW_MS + 60 * 60 * 1_000);
    await start(placeOf(first, true), clock);

    // then: the gateway refuses the cursor, and the page reads the payment and follows the deposit afresh
    await page.waitForSelector('#timeline li[data-status="SUCCEEDED"]', PATIENCE);
    expect(await timeline(page)).toEqual(['PENDING created', 'AUTHORIZED live', 'SUCCEEDED read']);
    const refused = frames.filter((frame) => frame.direction === 'received' && frame.message.payload?.errors?.some((error) => error.extensions?.code === 'CURSOR_EXPIRED'));
    expect(refused).toHaveLength(1);
    await expect.poll(() => subscribes(frames, id), PATIENCE).toEqual([undefined, lastCursor, undefined]);
    expect(await page.evaluate(() => (window as { sameDocument?: boolean }).sameDocument)).toBe(true);
    expect(await page.$$eval('#errors p', (lines) => lines.map((line) => line.textContent))).toEqual([]);
    await page.close();
  });
});
