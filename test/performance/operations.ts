// Operations the read-path tests send, typed by GraphQL Code Generator.

import { graphql } from '../__generated__/gql.js';

export const DepositsWithRefundsAndEventsQuery = graphql(`
  query DepositsWithRefundsAndEvents($first: Int) {
    deposits(first: $first) {
      edges {
        node {
          id
          status
          amount { amount currency }
          refundedAmount { amount currency }
          refunds { id status amount { amount currency } deposit { id } }
          events { id type fromStatus toStatus deposit { id status } }
        }
      }
      pageInfo { hasNextPage endCursor }
    }
  }
`);
