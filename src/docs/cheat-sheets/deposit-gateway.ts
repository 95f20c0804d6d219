// The deposit gateway sandbox's part of the sandbox cheat sheet (docs/sandbox.md): its pages, its
// test cards and magic values, and how each outcome of each rail is reached. Every value is read
// from the constants the sandbox itself runs on, so the page changes when the sandbox does; the
// status the gateway shows for each from the adapter's mapping. Here, not in the sandbox: a
// sandbox takes nothing of its adapter but the named assumptions.

import { CARD_DECLINE_REASONS, CHECKOUT_SESSION_EXPIRY_MARGIN_SECONDS, LATAM_PROVIDER_LINK_LIFETIME_SECONDS, SANDBOX_TRIGGERS } from '../../providers/deposit-gateway/assumptions.js';
import { depositStatusOf, payoutStatusOf, refundStatusOf } from '../../providers/deposit-gateway/mapping.js';
import type { SandboxCheatSheet } from './types.js';
import { MAX_AMOUNT_DECIMALS, WHOLE_NUMBER_CURRENCIES } from '../../providers/deposit-gateway/rules.js';
import { DEFAULT_CARD_BRANDS } from '../../sandbox/deposit-gateway/hosted.js';
import { PAGE_ACTIONS, CRYPTO_LABELS } from '../../sandbox/deposit-gateway/pages.js';
import { outcomesOf, PROCESSING_DELAY_MS, REVERT_DELAY_MS } from '../../sandbox/deposit-gateway/simulator.js';

/** Cards the sandbox's card processor approves (any amount not ending in the decline suffix): the schemes' usual test numbers. */
export const APPROVING_TEST_CARDS: ReadonlyArray<{ number: string; scheme: string }> = [
  { number: '4242 4242 4242 4242', scheme: 'VISA' },
  { number: '5555 5555 5555 4444', scheme: 'MASTER' },
];

/** A test card's number as people write it: groups of four. */
export function groupedCardNumber(digits: string): string {
  return digits.replace(/(\d{4})(?=\d)/g, '$1 ');
}

const code = (value: string): string => `\`${value}\``;

/** `approved` → `SUCCEEDED`: the gateway status a provider payment status word becomes. */
function gatewayStatus(word: string): string {
  const status = depositStatusOf(word);
  if (!status) throw new Error(`No gateway status for the payment status ${word}`);
  return status;
}

export function depositGatewayCheatSheet(defaultAccounts: ReadonlyArray<{ code: string; livemode: boolean }>): SandboxCheatSheet {
  const testAccount = defaultAccounts.find((account) => !account.livemode)?.code;
  const liveAccount = defaultAccounts.find((account) => account.livemode)?.code;
  if (!testAccount || !liveAccount) throw new Error('The deposit gateway cheat sheet is written for a default test account and a default live one');
  const suffix = SANDBOX_TRIGGERS.declineAmountSuffix;
  const declineCards: ReadonlyArray<readonly [string, readonly [string, string]]> = Object.entries(SANDBOX_TRIGGERS.declineCards);
  const buttons = Object.values(PAGE_ACTIONS);
  const cryptoOutcomes = outcomesOf('crypto');
  const cryptoButtons = buttons.filter((action) => cryptoOutcomes.includes(action.outcome));
  const cryptoLabel = (action: (typeof buttons)[number]): string => {
    const key = (Object.keys(PAGE_ACTIONS) as Array<keyof typeof PAGE_ACTIONS>).find((name) => PAGE_ACTIONS[name] === action)!;
    return CRYPTO_LABELS[key] ?? action.label;
  };
  const refundWord = (word: string): string => refundStatusOf(word) ?? word;
  const payoutWord = (word: string): string => payoutStatusOf(word) ?? word;

  return {
    addresses: [
      { path: '/v1', what: `Its API, which the gateway calls for ${defaultAccounts.map((account) => code(account.code)).join(' and ')}` },
      { path: '/c/<session>', what: 'The hosted checkout page of a session (a HOSTED_CHECKOUT deposit\'s `redirectUrl`)' },
      { path: '/r/<reference>', what: 'The payment page of a UPI, PIX or white-label payment (its `redirectUrl`)' },
      { path: '/acquirer/<rail>/<reference>', what: 'The acquirer\'s payment page of a card, open banking, LATAM or crypto payment (its `redirectUrl`)' },
      { path: '/card/<reference>', what: 'The embedded card form\'s card fields (framed by the loader `cardSession.scriptUrl` names)' },
      { path: '/result', what: 'Where a player lands after a page when the deposit named no return address' },
      { path: '/healthz', what: 'Its health' },
    ],
    sections: [
      [
        '### Deposit gateway: how a payment ends',
        '',
        `With \`SANDBOX_AUTO_COMPLETE\` on (the default), a payment made through the API (every rail but hosted checkout, cards included) ends by itself right after it is created, by the test-mode rule of the provider's spec: an amount ending in ${code(suffix)} (say ${code(`10${suffix}`)}) is ${code('declined')} (the deposit becomes ${code(gatewayStatus('declined'))}), any other is ${code('approved')} (${code(gatewayStatus('approved'))}).`,
        '',
        `With \`SANDBOX_AUTO_COMPLETE=false\`, a payment waits for its payer: open the deposit's \`redirectUrl\` and press a button. Each button gives the payment a status, which the signed webhook brings to the deposit:`,
        '',
        '| Button | Payment status | Deposit status |',
        '| --- | --- | --- |',
        ...buttons.map((action) => `| ${action.label} | ${code(action.outcome)} | ${code(gatewayStatus(action.outcome))} |`),
        '',
        `Card and hosted checkout pages also offer a decline reason (${CARD_DECLINE_REASONS.map(code).join(', ')}) for Decline. The crypto page has two buttons only, as the spec's crypto flow has two events: ${cryptoButtons.map((action) => `"${cryptoLabel(action)}" (${code(gatewayStatus(action.outcome))})`).join(' and ')}.`,
        '',
      ].join('\n'),
      [
        '### Deposit gateway: test cards',
        '',
        `The embedded card form (a CARD deposit's \`cardSession\`, then \`settleCardDeposit\`) sends the card to the sandbox's card processor. Use it with \`SANDBOX_AUTO_COMPLETE=false\`: otherwise the payment is decided by its amount before anyone types a card. Any expiry date in the future (MM/YY) and a 3-digit security code (4 digits for AMEX) will do. The sandbox accounts take ${DEFAULT_CARD_BRANDS.split(' ').map(code).join(' and ')} cards.`,
        '',
        '| Card number | Outcome | `decline_reason` | Processor code (`statusReason`, admins only) |',
        '| --- | --- | --- | --- |',
        ...APPROVING_TEST_CARDS.map((card) => `| ${code(card.number)} (${card.scheme}) | ${gatewayStatus('approved')}, unless the amount ends in ${code(suffix)} | | |`),
        ...declineCards.map(([number, [reason, processorCode]]) => `| ${code(groupedCardNumber(number))} | ${gatewayStatus('declined')} | ${code(reason)} | ${processorCode} |`),
        `| any card with a past expiry date | ${gatewayStatus('declined')} | ${code('expired_card')} | 54 Expired card |`,
        '',
        `3-D Secure: no challenge page is simulated; ${code(groupedCardNumber(declineCards.find(([, [reason]]) => reason === 'verification_failed')![0]))} stands for a failed authentication. A card number that fails the Luhn check, or of a brand the account has not boarded, is refused on the card fields page and nothing is charged.`,
        '',
      ].join('\n'),
      [
        '### Deposit gateway: each rail',
        '',
        '| Rail | How to try it on the sandbox |',
        '| --- | --- |',
        `| CARD | Amount rule above; or the embedded card form and the test cards (with \`SANDBOX_AUTO_COMPLETE=false\`); or, also with it off, the acquirer page at \`redirectUrl\`. |`,
        `| HOSTED_CHECKOUT | Live-mode accounts only: name \`merchantAccount: "${liveAccount}"\` (a request naming no account gets ${code(testAccount)}, which refuses it with \`HOSTED_CHECKOUT_REQUIRES_LIVE_ACCOUNT\`). Open \`redirectUrl\`, pick a method (cards or a bank), press a button. The session's payment exists only once the player acts, so the amount rule does not apply; a session nobody pays ends at its \`expiresInSeconds\`, and the reconciler makes the deposit ${code(gatewayStatus('expired'))} ${CHECKOUT_SESSION_EXPIRY_MARGIN_SECONDS / 60} minutes later. |`,
        `| OPEN_BANKING | Amount rule, or the acquirer page's buttons. |`,
        `| LATAM | Amount rule, or the acquirer page's buttons. A link left unpaid lapses (Peru and Chile ${LATAM_PROVIDER_LINK_LIFETIME_SECONDS / 60} minutes after creation, the others at their \`expiresAt\` or after ${LATAM_PROVIDER_LINK_LIFETIME_SECONDS / 60} minutes): the deposit becomes ${code(gatewayStatus('expired'))}. |`,
        `| UPI, PIX | Amount rule, or the page at \`redirectUrl\` (\`/r/<reference>\`). No chargebacks: push payments. |`,
        `| CRYPTO | Amount rule, or the crypto page's two buttons. |`,
        '',
        `Amounts take at most ${MAX_AMOUNT_DECIMALS} decimals; ${WHOLE_NUMBER_CURRENCIES.map(code).join(' and ')} whole numbers. Durations run on the sandbox's clock: \`SANDBOX_TIME_SCALE=0.01\` makes half an hour 18 seconds.`,
        '',
      ].join('\n'),
      [
        '### Deposit gateway: refunds, payouts, chargebacks',
        '',
        `Refunds (\`requestRefund\`) are decided ${PROCESSING_DELAY_MS} ms (sandbox clock) after the request, by the amount counted in cents (whole pesos for CLP and COP):`,
        '',
        '| Refund amount | Refund status |',
        '| --- | --- |',
        `| ends in ${code(SANDBOX_TRIGGERS.refundRejectMinorSuffix)} (say ${code(`5.${SANDBOX_TRIGGERS.refundRejectMinorSuffix}`)}) | ${code(refundWord('rejected'))} |`,
        `| ends in ${code(SANDBOX_TRIGGERS.refundCancelMinorSuffix)} (say ${code(`5.${SANDBOX_TRIGGERS.refundCancelMinorSuffix}`)}) | ${code(refundWord('cancelled'))} (cancelled at the provider) |`,
        `| any other | ${code(refundWord('approved'))} |`,
        '',
        `Payouts (\`createPayout\`) are decided ${PROCESSING_DELAY_MS} ms (sandbox clock) after the request, by the end of the beneficiary's \`accountNumber\`:`,
        '',
        '| `accountNumber` | Payout status |',
        '| --- | --- |',
        `| ends in ${code(SANDBOX_TRIGGERS.payoutBounceAccountSuffix)} | ${code(payoutWord('bounced'))} |`,
        `| ends in ${code(SANDBOX_TRIGGERS.payoutRevertAccountSuffix)} | ${code(payoutWord('paid'))}, then ${code(payoutWord('reverted'))} ${REVERT_DELAY_MS} ms later |`,
        `| ends in ${code(SANDBOX_TRIGGERS.payoutFailAccountSuffix)} | ${code(payoutWord('failed'))} |`,
        `| any other | ${code(payoutWord('paid'))} |`,
        '',
        'Chargebacks have no page: the sandbox\'s test control `openChargeback(reference)` opens one on an approved card, open banking, LATAM or crypto payment (tests reach it through `gateway.sandboxes.get(…).controls`). Provider failures (`failNext`: 500, 503, 429 or a hang) and lost or late webhooks (`webhooks({ dropNext, delayNextMs })`) are test controls too.',
        '',
      ].join('\n'),
    ],
  };
}
