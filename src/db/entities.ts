// Every entity the ORM knows, in one list (defineEntity schemas; no file discovery).

import { ApiClientSchema } from '../modules/clients/api-client.entity.js';

export const entities = [ApiClientSchema];
