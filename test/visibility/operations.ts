// Operations the visibility tests send: just enough of each list, log and stream to compare ids.

import { graphql } from '../__generated__/gql.js';

export const VisibleEventsQuery = graphql(`
  query VisibleEvents($first: Int, $after: String) {
    events(first: $first, after: $after) {
      edges { node { subjectType subjectId } }
      pageInfo { hasNextPage endCursor }
    }
  }
`);

export const VisibleDepositsQuery = graphql(`
  query VisibleDeposits($first: Int) {
    deposits(first: $first) {
      edges { node { id merchantAccount refunds { id } } }
    }
  }
`);

export const VisiblePayoutsQuery = graphql(`
  query VisiblePayouts($first: Int) {
    payouts(first: $first) {
      edges { node { id merchantAccount } }
    }
  }
`);

export const DepositStream = graphql(`
  subscription DepositStream {
    depositUpdated { id status }
  }
`);

export const RefundStream = graphql(`
  subscription RefundStream {
    refundUpdated { id status }
  }
`);

export const PayoutStream = graphql(`
  subscription PayoutStream {
    payoutUpdated { id status }
  }
`);
