// What a client sees of an error: messages written for clients, no schema suggestions, and
// refusals with their own code and status.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postRaw, startTestGateway } from '../support/gateway.js';

let t: Awaited<ReturnType<typeof startTestGateway>>;
beforeAll(async () => {
  t = await startTestGateway();
});
afterAll(() => t?.close());

describe('schema suggestions', () => {
  it('are not in validation or input errors over HTTP', async () => {
    const field = await postRaw(t.gateway.graphqlUrl, { query: '{ viewer { nam } }' }, t.keys.webCashier);
    expect(field.body.errors[0].message).toMatch(/Cannot query field "nam"/);
    const literal = await postRaw(t.gateway.graphqlUrl, { query: 'mutation { createApiClient(input: { name: "x", roles: [ADMN] }) { key } }' }, t.keys.admin);
    expect(literal.body.errors[0].message).toMatch(/"ADMN"/);
    const variable = await postRaw(
      t.gateway.graphqlUrl,
      { query: 'mutation($input: CreateApiClientInput!) { createApiClient(input: $input) { key } }', variables: { input: { name: 'x', roles: ['ADMN'] } } },
      t.keys.admin,
    );
    expect(variable.body.errors[0].message).toMatch(/"ADMN"/);
    for (const response of [field, literal, variable]) {
      expect(response.status).toBe(400);
      expect(JSON.stringify(response.body)).not.toMatch(/Did you mean|"name"|"ADMIN"|Suggestion/);
    }
  });
});

describe('forbidden introspection', () => {
  const query = '{ __schema { queryType { name } } }';

  it('is a FORBIDDEN GraphQL error over HTTP, not a server error', async () => {
    const response = await postRaw(t.gateway.graphqlUrl, { query }, t.keys.webCashier);
    expect(response.status).toBe(403);
    expect(response.body.errors).toEqual([{ message: expect.stringMatching(/^Forbidden/), extensions: { code: 'FORBIDDEN' } }]);
  });
});
