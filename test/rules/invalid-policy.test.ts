/** invalid-policy: raised by the OpenAPI integration loader as a ConfigError (exit 2). */
import { join } from 'node:path';
import { snapshotOpenApi } from '../../src/sources/openapi/index.js';
import { ROOT } from '../support/mcp-fixtures.js';
import { ruleTests } from '../support/surface-builders.js';

const dir = join(ROOT, 'test/fixtures/openapi/rules');
const snapshot = (file: string) => async () => {
  await snapshotOpenApi(join(dir, file));
  return [];
};

ruleTests('invalid-policy', {
  fires: [
    {
      name: 'a policy value other than "read" (line of the entry)',
      run: snapshot('invalid-policy.json'),
      expect: [
        {
          ruleId: 'invalid-policy',
          location: { file: join(dir, 'invalid-policy.json'), line: 11, pointer: '/policies/createItem' },
          message: 'invalid policy "write" for "createItem"',
        },
      ],
    },
  ],
  silent: [
    {
      name: 'every policy is "read"',
      run: snapshot('valid.json'),
      expect: [],
    },
  ],
});
