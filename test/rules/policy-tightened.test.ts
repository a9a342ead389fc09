/** policy-tightened: a pull request makes the base policy stricter; a notice, it applies after the merge. */
import { policyReview, ruleTests } from '../support/surface-builders.js';

const SOURCES = 'sources:\n  - id: web\n    recorded: tools.json\n';
const judge = policyReview;

ruleTests('policy-tightened', {
  fires: [
    {
      name: 'the runtime narrowed to the read-only agent, with a deny pattern and a smaller result bound',
      run: judge(SOURCES, `${SOURCES}runtime:\n  allow: [read]\n  deny: ["*delete*"]\n  max-result-bytes: 65536\n`),
      expect: [
        { ruleId: 'policy-tightened', message: /runtime\.allow no longer admits "write" tools/ },
        { ruleId: 'policy-tightened', message: /runtime\.deny pattern "\*delete\*" is added/ },
        { ruleId: 'policy-tightened', message: /runtime\.max-result-bytes is lowered from 4194304 to 65536/ },
      ],
    },
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
