// Abuse limits of the GraphQL surface that graphql-armor does not cover: money-moving root fields
// per operation (a validation rule, shared by HTTP and graphql-ws) and the length of the query text;
// and the codes and messages of graphql-armor's own refusals (cost, depth, aliases).

import { GraphQLError, Kind, OperationTypeNode, type ASTVisitor, type SelectionSetNode, type ValidationContext, type ValidationRule } from 'graphql';

/**
 * Mutations that move money or call a provider. Each root field runs its own provider call, so
 * fifteen aliases of one are fifteen calls; a new such mutation belongs here.
 */
export const MONEY_FIELDS: ReadonlySet<string> = new Set([
  'createDeposit',
  'createQrCode',
  'requestRefund',
  'createPayout',
  'settleCardDeposit',
  'reconcileDeposit',
  'registerQrWebhook',
  'simulateQrPayment',
]);

export const TOO_MANY_MONEY_OPERATIONS = 'TOO_MANY_MONEY_OPERATIONS';
export const QUERY_TOO_LONG = 'QUERY_TOO_LONG';
export const QUERY_TOO_COSTLY = 'QUERY_TOO_COSTLY';
export const QUERY_TOO_DEEP = 'QUERY_TOO_DEEP';
export const TOO_MANY_ALIASES = 'TOO_MANY_ALIASES';
/** The codes of graphql-armor's refusals, which Apollo would otherwise relabel GRAPHQL_VALIDATION_FAILED. */
export const LIMIT_RULE_CODES = [QUERY_TOO_COSTLY, QUERY_TOO_DEEP, TOO_MANY_ALIASES] as const;

/** A graphql-armor `onReject` callback: the validation context and the refusal armor made. */
type ArmorRejection = (context: ValidationContext | null, error: GraphQLError) => void;

/**
 * Reports a graphql-armor refusal (which reads "Syntax Error: Query Cost limit of 5000 exceeded…")
 * with a code of its own and a message that says what to change. Used with
 * `propagateOnRejection: false`: armor then neither throws nor reports its own error (its Apollo
 * integration would report it as BAD_USER_INPUT), and this report is the refusal.
 */
function armorRefusal(code: string, explain: (armorMessage: string) => string): ArmorRejection {
  return (context, error) => {
    context?.reportError(new GraphQLError(explain(error.message.replace(/^Syntax Error: /, '')), { extensions: { code } }));
  };
}

/** The graphql-armor settings of the gateway's limits, with their refusals' codes and messages. */
export function armorLimits(limits: { maxCost: number; maxDepth: number; maxAliases: number }) {
  const found = (message: string): string => /found (\d+)/.exec(message)?.[1] ?? 'more';
  return {
    costLimit: {
      maxCost: limits.maxCost,
      propagateOnRejection: false,
      onReject: [
        armorRefusal(QUERY_TOO_COSTLY, (message) =>
          `The operation's estimated cost is ${found(message)}, above the limit of ${limits.maxCost}: select fewer fields or nest less, or split it into several operations.`,
        ),
      ],
    },
    maxDepth: {
      n: limits.maxDepth,
      propagateOnRejection: false,
      onReject: [armorRefusal(QUERY_TOO_DEEP, (message) => `The operation's depth is ${found(message)}, above the limit of ${limits.maxDepth}: select less deeply.`)],
    },
    maxAliases: {
      n: limits.maxAliases,
      propagateOnRejection: false,
      onReject: [armorRefusal(TOO_MANY_ALIASES, (message) => `The operation uses ${found(message)} aliases, above the limit of ${limits.maxAliases}: send several operations instead.`)],
    },
  };
}

/**
 * Validation rule: a mutation may select at most `max` money-moving root fields, counted by
 * response name (so aliases count, and a field repeated under one name, which graphql-js runs
 * once, counts once), fragments included. The whole operation is refused before it runs.
 */
export function maxMoneyFieldsRule(max: number): ValidationRule {
  return (context: ValidationContext): ASTVisitor => ({
    OperationDefinition(operation) {
      if (operation.operation !== OperationTypeNode.MUTATION) return;
      const responseNames = new Set<string>();
      const seenFragments = new Set<string>();
      const collect = (selectionSet: SelectionSetNode) => {
        for (const selection of selectionSet.selections) {
          if (selection.kind === Kind.FIELD) {
            if (MONEY_FIELDS.has(selection.name.value)) responseNames.add(selection.alias?.value ?? selection.name.value);
          } else if (selection.kind === Kind.INLINE_FRAGMENT) {
            collect(selection.selectionSet);
          } else {
            const name = selection.name.value;
            if (seenFragments.has(name)) continue;
            seenFragments.add(name);
            const fragment = context.getFragment(name);
            if (fragment) collect(fragment.selectionSet);
          }
        }
      };
      collect(operation.selectionSet);
      if (responseNames.size > max) {
        context.reportError(
          new GraphQLError(
            `An operation may run at most ${max} money-moving field${max === 1 ? '' : 's'} (deposits, refunds, payouts, QR codes, provider calls); this one has ${responseNames.size}. Send them as separate operations.`,
            { nodes: operation, extensions: { code: TOO_MANY_MONEY_OPERATIONS } },
          ),
        );
      }
    },
  });
}

/** The error for a query text longer than `maxChars`, refused before it is parsed. */
export function queryTooLong(maxChars: number): GraphQLError {
  return new GraphQLError(`The query is longer than ${maxChars} characters`, { extensions: { code: QUERY_TOO_LONG } });
}
