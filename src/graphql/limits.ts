// Abuse limits of the GraphQL surface that graphql-armor does not cover: money-moving root fields
// per operation (a validation rule, shared by HTTP and graphql-ws) and the length of the query text.

import { GraphQLError, Kind, type ASTVisitor, type SelectionSetNode, type ValidationContext, type ValidationRule } from 'graphql';

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

/**
 * Validation rule: a mutation may select at most `max` money-moving root fields, counted by
 * response name (so aliases count, and a field repeated under one name, which graphql-js runs
 * once, counts once), fragments included. The whole operation is refused before it runs.
 */
export function maxMoneyFieldsRule(max: number): ValidationRule {
  return (context: ValidationContext): ASTVisitor => ({
    OperationDefinition(operation) {
      if (operation.operation !== 'mutation') return;
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
