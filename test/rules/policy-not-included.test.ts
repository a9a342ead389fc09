/** policy-not-included: raised by the OpenAPI loader when a policy names an operation outside `include`. */
import { join } from 'node:path';
import { snapshotOpenApi } from '../../src/sources/openapi/index.js';
import { ROOT } from '../support/mcp-fixtures.js';
import { ruleTests } from '../support/surface-builders.js';

const dir = join(ROOT, 'test/fixtures/openapi/rules');
const snapshot = (file: string) => async () => {
  await snapshotOpenApi(join(dir, file));
  return [];
};

ruleTests('policy-not-included', {
  fires: [
    {
      name: 'policies names createItem, include lacks it (line of the policy)',
      run: snapshot('policy-not-included.json'),
      expect: [
        {
          ruleId: 'policy-not-included',
          location: { file: join(dir, 'policy-not-included.json'), line: 9, pointer: '/policies/createItem' },
          message: 'which is not in `include`',
        },
      ],
    },
  ],
  silent: [
    {
      name: 'the promoted operation is included',
      run: snapshot('valid.json'),
      expect: [],
    },
  ],
});
