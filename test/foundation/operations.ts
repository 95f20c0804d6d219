// Operations the foundation tests send, typed by GraphQL Code Generator from schema/schema.graphql.

import { graphql } from '../__generated__/gql.js';

export const ViewerQuery = graphql(`
  query Viewer {
    viewer {
      id
      name
      roles
      keyPrefix
      revokedAt
    }
  }
`);

export const ApiClientsQuery = graphql(`
  query ApiClients($first: Int, $after: String) {
    apiClients(first: $first, after: $after) {
      edges {
        cursor
        node {
          id
          name
          roles
        }
      }
      pageInfo {
        hasNextPage
        endCursor
      }
    }
  }
`);

export const MerchantAccountsQuery = graphql(`
  query MerchantAccounts {
    merchantAccounts {
      code
      provider
      livemode
      rails
      capabilities
    }
  }
`);

export const CreateApiClientMutation = graphql(`
  mutation CreateApiClient($input: CreateApiClientInput!) {
    createApiClient(input: $input) {
      client {
        id
        name
        roles
        merchantAccounts
      }
      key
      userErrors {
        field
        code
        message
      }
    }
  }
`);

export const RevokeApiClientMutation = graphql(`
  mutation RevokeApiClient($input: RevokeApiClientInput!) {
    revokeApiClient(input: $input) {
      client {
        id
        revokedAt
      }
      userErrors {
        field
        code
        message
      }
    }
  }
`);

export const HeartbeatSubscription = graphql(`
  subscription Heartbeat($intervalSeconds: Int!) {
    heartbeat(intervalSeconds: $intervalSeconds) {
      at
      sequence
    }
  }
`);

export const AdminActionsQuery = graphql(`
  query AdminActions($first: Int, $after: String, $filter: AdminActionFilter) {
    adminActions(first: $first, after: $after, filter: $filter) {
      edges {
        cursor
        node { id action clientId clientName requestId objects { kind id } outcome startedAt finishedAt }
      }
      pageInfo { hasNextPage endCursor }
    }
  }
`);

export const SetApiClientTrustedDocumentsMutation = graphql(`
  mutation SetApiClientTrustedDocuments($input: SetApiClientTrustedDocumentsInput!) {
    setApiClientTrustedDocuments(input: $input) {
      client { id name trustedDocumentsOnly }
      userErrors { field code message }
    }
  }
`);

export const ApiClientRulesQuery = graphql(`
  query ApiClientRules($first: Int) {
    apiClients(first: $first) {
      edges { node { id name trustedDocumentsOnly } }
    }
  }
`);

export const CreateApiKeyMutation = graphql(`
  mutation CreateApiKey($input: CreateApiKeyInput!) {
    createApiKey(input: $input) {
      apiKey { id clientId prefix createdAt expiresAt lastUsedAt revokedAt }
      key
      userErrors { field code message }
    }
  }
`);

export const RevokeApiKeyMutation = graphql(`
  mutation RevokeApiKey($input: RevokeApiKeyInput!) {
    revokeApiKey(input: $input) {
      apiKey { id clientId prefix revokedAt }
      userErrors { field code message }
    }
  }
`);

export const ApiClientKeysQuery = graphql(`
  query ApiClientKeys($first: Int, $after: String) {
    apiClients(first: $first, after: $after) {
      edges { node { id name lastUsedAt revokedAt keys { id prefix createdAt expiresAt lastUsedAt revokedAt } } }
      pageInfo { hasNextPage endCursor }
    }
  }
`);

export const ViewerKeysQuery = graphql(`
  query ViewerKeys {
    viewer { id keys { id prefix expiresAt revokedAt } }
  }
`);
