// How a setting's text becomes its value: the zod schemas of the environment's usual kinds of value,
// shared by the configuration (src/config.ts) and the providers' own settings, so a switch or a
// number reads alike and is refused with the same words whoever declares it.

import { z } from 'zod';

/** `true`, `false`, `1`, `0`, `yes` or `no`. */
export const booleanString = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'], { message: 'must be true or false' })
  .transform((value) => value === 'true' || value === '1' || value === 'yes');

/** A whole number from 1 to `max`. */
export const positiveInt = (max = Number.MAX_SAFE_INTEGER) =>
  z
    .string()
    .regex(/^[0-9]+$/, 'must be a whole number')
    .transform(Number)
    .pipe(z.number().int().min(1).max(max));

/** A whole number from 0 to `max`. */
export const nonNegativeInt = (max: number) =>
  z
    .string()
    .regex(/^[0-9]+$/, 'must be a whole number')
    .transform(Number)
    .pipe(z.number().int().min(0).max(max));

/** A TCP port, 0 (any free port) to 65535. */
export const portNumber = z
  .string()
  .regex(/^[0-9]+$/, 'must be a port number')
  .transform(Number)
  .pipe(z.number().int().min(0).max(65535));
