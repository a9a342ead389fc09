/** The ConfigError that parsing a toolgate.yml text throws; fails the test when it is accepted. */
import { expect } from 'vitest';
import { parsePolicy } from '../../src/config/policy.js';
import { ConfigError } from '../../src/util/errors.js';

export function refusedPolicy(yaml: string, file = 'toolgate.yml'): ConfigError {
  try {
    parsePolicy(yaml, file, '/r');
  } catch (e) {
    expect(e).toBeInstanceOf(ConfigError);
    return e as ConfigError;
  }
  throw new Error(`${file} was accepted`);
}
