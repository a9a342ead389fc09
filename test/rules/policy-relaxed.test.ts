/** policy-relaxed: a pull request relaxes the base branch's policy (docs/design.md §7); error until approved. */
import { policyReview, ruleTests } from '../support/surface-builders.js';

const SOURCES = 'sources:\n  - id: web\n    mcp:\n      command: node\n      args: [server.js]\n';
const judge = policyReview;

ruleTests('policy-relaxed', {
  fires: [
    {
      name: 'a rule turned off, on the line that turns it off',
      run: judge(SOURCES, `${SOURCES}rules:\n  read-promotion-unreviewed: off\n`),
      expect: [
        {
          ruleId: 'policy-relaxed',
          level: 'error',
          message: /read-promotion-unreviewed/,
          location: { file: 'toolgate.yml', line: 7 },
          data: { kind: 'rule-level' },
        },
      ],
    },
    {
      name: 'the runtime admits writes again (runtime.allow gains a class), on that line',
      run: judge(`${SOURCES}runtime:\n  allow: [read]\n`, `${SOURCES}runtime:\n  allow: [read, write]\n`),
      expect: [
        { ruleId: 'policy-relaxed', data: { kind: 'runtime' }, message: 'runtime.allow admits "write" tools', location: { file: 'toolgate.yml', line: 7 } },
      ],
    },
    {
      name: 'the runtime block removed: every default is wider (write admitted, deny and allow-tools gone, drift hidden)',
      run: judge(`${SOURCES}runtime:\n  allow: [read]\n  deny: ["*delete*"]\n  allow-tools: [get_*]\n  on-drift: refuse-all\n`, SOURCES),
      expect: [
        { ruleId: 'policy-relaxed', message: 'runtime.allow admits "write" tools' },
        { ruleId: 'policy-relaxed', message: 'runtime.deny pattern "*delete*" is removed' },
        { ruleId: 'policy-relaxed', message: 'runtime.allow-tools is removed' },
        { ruleId: 'policy-relaxed', message: 'runtime.on-drift is hide (was refuse-all)' },
      ],
    },
    {
      name: 'runtime.log-arguments turned on (argument values, secrets among them, reach the log)',
      run: judge(SOURCES, `${SOURCES}runtime:\n  log-arguments: true\n`),
      expect: [{ ruleId: 'policy-relaxed', message: /runtime\.log-arguments is on/ }],
    },
    {
      name: 'a deny entry removed',
      run: judge(`${SOURCES}deny:\n  - tools: ["*shell*"]\n`, SOURCES),
      expect: [{ ruleId: 'policy-relaxed', data: { kind: 'deny' }, message: /shell/ }],
    },
    {
      name: 'review.reviewers deleted: anyone with write access may approve now',
      run: judge(`${SOURCES}review:\n  reviewers: [sec-lead]\n`, SOURCES),
      expect: [{ ruleId: 'policy-relaxed', data: { kind: 'review' } }],
    },
    {
      name: "the runner's cache token handed to the server is refused elsewhere; another env name added is a relaxation",
      run: judge(SOURCES, SOURCES.replace('args: [server.js]', 'args: [server.js]\n      env: [API_KEY]')),
      expect: [{ ruleId: 'policy-relaxed', data: { kind: 'source-env' }, message: /API_KEY/ }],
    },
    {
      name: 'the server command changed',
      run: judge(SOURCES, SOURCES.replace('args: [server.js]', 'args: [other.js]')),
      expect: [{ ruleId: 'policy-relaxed', data: { kind: 'source-command' } }],
    },
    {
      name: 'a new source (new reach; a matrix job over named sources would never check it)',
      run: judge(SOURCES, `${SOURCES}  - id: other\n    recorded: tools.json\n`),
      expect: [{ ruleId: 'policy-relaxed', data: { kind: 'source-added' }, message: 'source "other" is added: a recorded tools/list result' }],
    },
    {
      name: 'an override turning a rule off, added next to a rules entry that does the same: both are relaxations',
      run: judge(SOURCES, `${SOURCES}rules:\n  tool-added: off\noverrides:\n  - tools: ["*"]\n    rules:\n      tool-added: off\n`),
      expect: [
        { ruleId: 'policy-relaxed', data: { kind: 'rule-level' } },
        { ruleId: 'policy-relaxed', data: { kind: 'override' } },
      ],
    },
    {
      name: 'allow-pull-request-target turned on',
      run: judge(SOURCES, `${SOURCES}allow-pull-request-target: true\n`),
      expect: [{ ruleId: 'policy-relaxed', data: { kind: 'allow' } }],
    },
    {
      name: 'an approved relaxation is a notice that says who approved',
      run: judge(`${SOURCES}limits:\n  max-tools: 10\n`, `${SOURCES}limits:\n  max-tools: 500\n`, { approved: true, approvers: ['bob'], missing: '' }),
      expect: [{ ruleId: 'policy-relaxed', level: 'notice', message: /approved by @bob$/ }],
    },
  ],
  silent: [
    {
      name: 'the same policy',
      run: judge(SOURCES, SOURCES),
      expect: [],
    },
    {
      name: 'a tightening is a policy-tightened notice that applies after the merge',
      run: judge(SOURCES, `${SOURCES}deny:\n  - tools: ["*shell*"]\n`),
      watch: ['policy-tightened'],
      expect: [{ ruleId: 'policy-tightened', level: 'notice', message: /applies after the merge/ }],
    },
  ],
});
