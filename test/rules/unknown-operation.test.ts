/** unknown-operation: an `include` or `policies` entry names an operation the document lacks (fails at load). */
import { join } from 'node:path';
import { snapshotOpenApi } from '../../src/sources/openapi/index.js';
import { ROOT } from '../support/mcp-fixtures.js';
import { ruleTests } from '../support/surface-builders.js';

const dir = join(ROOT, 'test/fixtures/openapi/rules');
const snapshot = (file: string) => async () => {
  const snap = await snapshotOpenApi(join(dir, file));
  // A successful load must still have produced every included operation.
  if (snap.tools.length === 0) throw new Error('no tools');
  return [];
};

ruleTests('unknown-operation', {
  fires: [
    {
      name: '`include` names an operationId the document lacks',
      run: snapshot('unknown-operation.json'),
      expect: [{ ruleId: 'unknown-operation', location: { file: join(dir, 'unknown-operation.json'), line: 7, pointer: '/include/1' }, message: '"getItem"' }],
    },
    {
      name: '`policies` names an operationId the document lacks',
      run: snapshot('unknown-operation-policy.json'),
      expect: [{ ruleId: 'unknown-operation', location: { file: join(dir, 'unknown-operation-policy.json'), line: 11, pointer: '/policies/archiveItem' } }],
    },
    {
      name: '`include` names a "METHOD /path" the document lacks',
      run: snapshot('unknown-operation-method-path.json'),
      expect: [{ ruleId: 'unknown-operation', location: { line: 7, pointer: '/include/1' }, message: 'PATCH /items/{id}' }],
    },
  ],
  silent: [
    {
      name: 'every entry names an operation',
      run: snapshot('valid.json'),
      expect: [],
    },
  ],
});
