import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The longest test files, longest first (measured alone: wall and CPU of `npx vitest run <file>`).
 * On a clean clone (CI) vitest knows no durations and starts the largest files first; a long file
 * that starts late leaves the other worker idle at the end of the run.
 */
const SLOW = [
  'test/hostile/interrupt.test.ts',
  'test/e2e/cli.test.ts',
  'test/e2e/action.test.ts',
  'test/e2e/openapi-pin.test.ts',
  'test/e2e/gate.test.ts',
  'test/e2e/proxy.test.ts',
  'test/hostile/servers.test.ts',
  'test/e2e/proxy-clients.test.ts',
  'test/sources/openapi-real.test.ts',
  'test/e2e/proxy-raw.test.ts',
  'test/hostile/bad-files.test.ts',
  'test/hostile/sandbox.test.ts',
  'test/sources/mcp-long-lines.test.ts',
  'test/hostile/atomic.test.ts',
  'test/golden.test.ts',
];

const rank = (spec: TestSpecification): number => {
  const i = SLOW.findIndex((f) => spec.moduleId.endsWith(`/${f}`));
  return i === -1 ? SLOW.length : i;
};

/**
 * Vitest's order (one project after another, files it knows to be long first), except that within
 * a project the files of {@link SLOW} start first. A project's files stay together: a worker that
 * is not isolated is reused only for the next file of its own project.
 */
export class SlowFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const position = new Map(sorted.map((spec, i) => [spec, i]));
    const projects = [...new Set(sorted.map((spec) => spec.project.name))];
    const byProject = (spec: TestSpecification) => projects.indexOf(spec.project.name);
    return sorted.sort((a, b) => byProject(a) - byProject(b) || rank(a) - rank(b) || position.get(a)! - position.get(b)!);
  }
}
