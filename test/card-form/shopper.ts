// The shopper's browser on a merchant page with the embedded card form, without a browser: runs the
// provider's real loader script against the merchant's form, opens the card fields it frames,
// submits a card to the processor, and reports where the processor sends the shopper back.

import vm from 'node:vm';
import { expect } from 'vitest';

export interface CardEntry {
  number: string;
  expiry: string;
  cvv: string;
}

export const TEST_CARD: CardEntry = { number: '4111 1111 1111 1111', expiry: '12/39', cvv: '737' };

export interface LoadedForm {
  /** Address of the processor's card fields the loader framed in place of the merchant's form. */
  fieldsUrl: string;
  /** Whatever the loader wrote into the merchant's own form (should be nothing). */
  injectedIntoMerchantForm: string[];
}

/**
 * Runs the loader from `scriptUrl` on a page holding `<form action="formAction" class="paymentWidgets" data-brands="…">`.
 * With `inHead`, the script runs from `<head>` as widget scripts usually do: the form is not parsed
 * yet when it runs, and appears when the document is (DOMContentLoaded).
 */
export async function loadCardForm(scriptUrl: string, formAction: string, brands: string[], options: { inHead?: boolean } = {}): Promise<LoadedForm> {
  const response = await fetch(scriptUrl);
  expect(response.status).toBe(200);
  const script = await response.text();
  const injected: string[] = [];
  let frameSrc: string | undefined;
  const form = {
    getAttribute: (name: string) => ({ action: formAction, class: 'paymentWidgets', 'data-brands': brands.join(' ') })[name] ?? null,
    insertAdjacentHTML: (_where: string, html: string) => injected.push(html),
    appendChild: (node: unknown) => injected.push(String(node)),
    set innerHTML(html: string) {
      injected.push(html);
    },
    parentNode: {
      replaceChild(node: { attributes: Record<string, string> }, old: unknown) {
        expect(old).toBe(form);
        frameSrc = node.attributes.src;
      },
    },
  };
  const listeners: Array<() => void> = [];
  let parsed = !options.inHead;
  const document = {
    get readyState() {
      return parsed ? 'complete' : 'loading';
    },
    // Before the body is parsed there is no form to find.
    querySelectorAll: (selector: string) => (parsed && selector === 'form.paymentWidgets' ? [form] : []),
    addEventListener: (type: string, listener: () => void) => {
      if (type === 'DOMContentLoaded') listeners.push(listener);
    },
    createElement: (tag: string) => {
      const attributes: Record<string, string> = {};
      return { tag, attributes, style: {}, setAttribute: (name: string, value: string) => void (attributes[name] = value) };
    },
  };
  vm.runInNewContext(script, { document, encodeURIComponent, URL });
  if (!parsed) {
    parsed = true;
    for (const listener of listeners) listener();
  }
  // The card fields are the processor's own page, served from where its loader came.
  const fields = `${new URL(scriptUrl).origin}/card/`;
  expect(frameSrc?.slice(0, fields.length), 'the loader frames the processor\'s card fields').toBe(fields);
  return { fieldsUrl: frameSrc!, injectedIntoMerchantForm: injected };
}

export interface Submission {
  /** The processor's own form address the card was posted to. */
  postedTo: string;
  /** Status of the processor's answer (303 when it sends the shopper back). */
  status: number;
  /** Where the processor sends the shopper (the merchant's form action plus its own query). */
  location: string | null;
  body: string;
}

/** Opens the card fields, fills them in and submits them to the processor, as the shopper's browser does. */
export async function submitCard(fieldsUrl: string, card: CardEntry = TEST_CARD): Promise<Submission> {
  const page = await fetch(fieldsUrl);
  expect(page.status).toBe(200);
  const html = await page.text();
  const formTag = /<form method="post" action="([^"]+)"[^>]*>/.exec(html);
  expect(formTag, 'the card fields page has a form').not.toBeNull();
  const postedTo = new URL(decodeEntities(formTag![1]!), fieldsUrl).toString();
  const fields = new URLSearchParams();
  for (const match of html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)) fields.set(match[1]!, decodeEntities(match[2]!));
  fields.set('card_number', card.number);
  fields.set('card_expiry', card.expiry);
  fields.set('card_cvv', card.cvv);
  const answer = await fetch(postedTo, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: fields.toString(), redirect: 'manual' });
  return { postedTo, status: answer.status, location: answer.headers.get('location'), body: await answer.text() };
}

function decodeEntities(text: string): string {
  return text.replace(/&#([0-9]+);/g, (_, code: string) => String.fromCharCode(Number(code))).replace(/&amp;/g, '&');
}
