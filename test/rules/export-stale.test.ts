/**
 * export-stale: raised by `check` (run-check → export/verify) for a committed export that no
 * longer matches what `toolgate export` writes from the contract and the head's runtime block.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Policy } from '../../src/config/policy-model.js';
import { parsePolicy } from '../../src/config/policy.js';
import { exportInput } from '../../src/export/files.js';
import { renderExport } from '../../src/export/render.js';
import { targetById } from '../../src/export/targets/index.js';
import { runCheck } from '../../src/run-check.js';
import { silentLogger } from '../../src/util/logger.js';
import { ruleTests } from '../support/surface-builders.js';

const TOOLS = JSON.stringify({
  tools: ['get_note', 'delete_note'].map((name) => ({ name, inputSchema: { type: 'object' }, annotations: { readOnlyHint: name.startsWith('get') } })),
});
const yaml = (deny: string) =>
  `sources:\n  - id: notes\n    recorded: tools.json\nruntime:\n  deny: [${deny}]\nexports:\n  - to: docker\n    file: deploy/tools.yaml\n`;

/** A repository with a contract pinned by `update`, the export as given (or as `toolgate export` writes it), then `check`. */
async function scenario(deny: string, exportText?: (fresh: string) => string | undefined) {
  const root = mkdtempSync(join(tmpdir(), 'tg-export-stale-'));
  try {
    writeFileSync(join(root, 'tools.json'), TOOLS);
    const load = (): Policy => parsePolicy(yaml(deny), join(root, 'toolgate.yml'), root);
    writeFileSync(join(root, 'toolgate.yml'), yaml(deny));
    const updated = await runCheck({ policy: load(), mode: 'update', root, logger: silentLogger });
    const policy = load();
    const contract = updated.sources[0]!.surface!;
    const fresh = renderExport(targetById('docker')!, exportInput(policy, contract, policy.exports[0]!, '.toolgate/notes.surface.json'));
    const text = exportText ? exportText(fresh) : fresh;
    mkdirSync(join(root, 'deploy'));
    if (text !== undefined) writeFileSync(join(root, 'deploy/tools.yaml'), text);
    const result = await runCheck({ policy, mode: 'check', root, logger: silentLogger, exports: { policy, entries: policy.exports } });
    return result.findings;
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

ruleTests('export-stale', {
  fires: [
    {
      name: 'a hand edit admits a tool the runtime block refuses (located on the line that differs)',
      run: () => scenario('delete_note', (fresh) => fresh.replace('  - get_note\n', '  - delete_note\n  - get_note\n')),
      expect: [
        {
          ruleId: 'export-stale',
          level: 'error',
          location: { file: 'deploy/tools.yaml', line: 13 },
          message:
            'the docker export deploy/tools.yaml is not what `toolgate export --to docker --source notes -o deploy/tools.yaml` writes from .toolgate/notes.surface.json and the runtime block: line 13 is "  - delete_note", the export writes "  - get_note"',
        },
      ],
    },
    {
      name: 'the committed export is missing',
      run: () => scenario('delete_note', () => undefined),
      expect: [
        {
          ruleId: 'export-stale',
          level: 'error',
          message:
            'the docker export deploy/tools.yaml is not what `toolgate export --to docker --source notes -o deploy/tools.yaml` writes from .toolgate/notes.surface.json and the runtime block: the file does not exist',
        },
      ],
    },
    {
      name: 'the runtime block changed after the export was written',
      run: () =>
        scenario('delete_note', (fresh) =>
          fresh
            .replace('Admits 1 of the 2', 'Admits 2 of the 2')
            .replace('  - get_note\n', '  - delete_note\n  - get_note\n')
            .replace(/# Not admitted.*\n/, ''),
        ),
      expect: [{ ruleId: 'export-stale', level: 'error', location: { file: 'deploy/tools.yaml' } }],
    },
  ],
  silent: [
    {
      name: 'the export as `toolgate export` writes it',
      run: () => scenario('delete_note'),
      expect: [],
      watch: ['export-stale'],
    },
  ],
});
