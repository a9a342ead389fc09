/** policy-tightened: a pull request makes the base policy stricter; a notice, it applies after the merge. */
import { policyReview, ruleTests } from '../support/surface-builders.js';

const SOURCES = 'sources:\n  - id: web\n    recorded: tools.json\n';
const judge = policyReview;

ruleTests('policy-tightened', {
  fires: [
    {
      name: 'a rule raised from warning to error, on its line',
      run: judge(SOURCES, `${SOURCES}rules:\n  unannotated-tool: error\n`),
      expect: [{ ruleId: 'policy-tightened', level: 'notice', location: { file: 'toolgate.yml', line: 5 }, message: /applies after the merge/ }],
    },
    {
      name: 'review.fresh turned on',
      run: judge(SOURCES, `${SOURCES}review:\n  fresh: true\n`),
      expect: [{ ruleId: 'policy-tightened', data: { kind: 'review' } }],
    },
  ],
  silent: [
    {
      name: 'a relaxation is policy-relaxed instead',
      run: judge(`${SOURCES}rules:\n  unannotated-tool: error\n`, SOURCES),
      watch: ['policy-relaxed'],
      expect: [{ ruleId: 'policy-relaxed' }],
    },
  ],
});
