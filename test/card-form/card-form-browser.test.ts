// The embedded card form in a real browser (the system Chromium driven by playwright-core), on a
// merchant page that loads the provider's script in <head>, where widget scripts usually go, at a
// phone's 320 px width: the card fields appear in place of the form, and the frame is tall enough
// for the Pay button. Without Chromium the tests are skipped on a developer's machine and fail in
// CI (CI=true), where .ci/run installs it.

import { mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execute, startTestGateway, type TestGateway } from '../support/gateway.js';
import { CARD_INPUT } from '../deposits/fixtures.js';
import { CreateDepositMutation } from '../deposits/operations.js';
import { CardSessionQuery } from './operations.js';
import { launchChromium, skipWithoutChromium } from '../support/chromium.js';



describe.skipIf(skipWithoutChromium("the card form's browser tests"))('embedded card form in Chromium', () => {
  let t: TestGateway;
  let browser: BrowserContext;
  let userDataDir: string;
  let merchant: http.Server;
  let merchantUrl: string;
  /** The merchant's cashier page, per deposit: the loader script in <head>, the form in <body>. */
  const pages = new Map<string, string>();

  beforeAll(async () => {
    userDataDir = await mkdtemp(path.join(tmpdir(), 'card-form-chromium-'));
    merchant = http.createServer((request, response) => {
      const html = pages.get(request.url ?? '');
      response.writeHead(html ? 200 : 404, { 'content-type': 'text/html; charset=utf-8' });
      response.end(html ?? 'not found');
    });
    await new Promise<void>((resolve) => merchant.listen(0, '127.0.0.1', resolve));
    merchantUrl = `http://127.0.0.1:${(merchant.address() as AddressInfo).port}`;
    [t, browser] = await Promise.all([
      startTestGateway({ env: { SANDBOX_AUTO_COMPLETE: 'false' } }),
      launchChromium(userDataDir, { width: 320, height: 640 }),
    ]);
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
    await new Promise((resolve) => merchant?.close(resolve));
    if (userDataDir) await rm(userDataDir, { recursive: true, force: true });
  });

  const escape = (value: string): string => value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

  it('a loader in <head> on a 320 px page frames the card fields in place of the form, with the Pay button inside the frame', async () => {
    // Given a card deposit and its card session
    const created = await execute(t.gateway.graphqlUrl, CreateDepositMutation, { input: CARD_INPUT }, { key: t.keys.webCashier });
    expect(created.errors).toBeUndefined();
    const id = created.data!.createDeposit.deposit!.id;
    const session = await execute(t.gateway.graphqlUrl, CardSessionQuery, { depositId: id }, { key: t.keys.webCashier });
    expect(session.errors).toBeUndefined();
    const { scriptUrl, formAction, brands } = session.data!.cardSession!;

    // and the merchant's page with the script in <head>
    pages.set(
      `/cashier/${id}`,
      `<!doctype html><html><head><meta name="viewport" content="width=device-width,initial-scale=1">
<script src="${escape(scriptUrl!)}"></script></head>
<body style="margin:0"><h1>Deposit</h1>
<form action="${escape(formAction!)}" class="paymentWidgets" data-brands="${escape(brands.join(' '))}"></form>
</body></html>`,
    );

    // When the shopper opens it on a phone
    const page = await browser.newPage();
    await page.goto(`${merchantUrl}/cashier/${id}`);

    // Then the form became the processor's card fields
    const iframe = await page.waitForSelector('iframe[title="Card payment"]', { timeout: 15_000 });
    expect(await page.$('form.paymentWidgets')).toBeNull();
    const fields = await iframe.contentFrame();
    const pay = await fields!.waitForSelector('button.pay', { timeout: 15_000 });
    expect(await fields!.$('#card_number')).not.toBeNull();

    // and the frame is tall enough to show the Pay button whole, at 320 px wide
    await expect
      .poll(async () => {
        const frameBox = await iframe.boundingBox();
        const payBox = await pay.boundingBox();
        return frameBox && payBox ? payBox.y + payBox.height <= frameBox.y + frameBox.height && payBox.x + payBox.width <= frameBox.x + frameBox.width : false;
      })
      .toBe(true);
    const frameBox = (await iframe.boundingBox())!;
    expect(frameBox.width).toBeLessThanOrEqual(320);
    await page.close();
  });
});
