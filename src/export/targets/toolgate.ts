/**
 * `toolgate proxy`: the `runtime` block with the admitted set pinned by name (`allow-tools`, each
 * name escaped so it matches only itself), so the proxy's configuration names, in a reviewed diff,
 * exactly the tools the contract admits today.
 */
import { toYaml, type YamlValue } from '../yaml.js';
import type { ExportTarget } from '../model.js';

/**
 * A minimatch pattern that matches exactly `name`: every character minimatch gives meaning to
 * (globs, classes, braces, extglobs, negation, a leading comment `#`) is backslash-escaped.
 * `minimatch.escape` leaves braces and commas, so `{a,b}` would match `a` and `b`.
 */
export function exactPattern(name: string): string {
  return name.replace(/[*?[\]{}()!+@\\#,|]/g, (c) => `\\${c}`);
}

export const toolgateTarget: ExportTarget = {
  id: 'toolgate',
  product: 'toolgate proxy',
  artifact: '`runtime` block of toolgate.yml (`allow-tools` pinned by name)',
  docs: 'docs/proxy.md',
  comment: '#',
  suggestedFile: (server) => `toolgate.runtime.${server}.yml`,
  enforces: { names: 'yes', arguments: 'yes', annotations: 'yes', schemaPin: 'yes' },
  verifiedBy: "toolgate's own policy loader and admission (`runtimeRefusal`) read the export back and admit exactly the exported set",
  cannot: [
    'Nothing of the contract: the proxy enforces names, pinned definitions, arguments against the pinned inputSchema and classes.',
    '`allow-tools` is one list for every source of a toolgate.yml: use this block in a toolgate.yml that serves this source alone.',
  ],
  render(input) {
    const r = input.runtime;
    const block: Record<string, YamlValue> = { allow: r.allow };
    // An empty allowlist would read as "no restriction" if dropped: it is written as it is.
    block['allow-tools'] = input.admitted.map((t) => exactPattern(t.name));
    if (r.deny.length) block.deny = r.deny;
    block['max-result-bytes'] = r.maxResultBytes;
    block['max-message-bytes'] = r.maxMessageBytes;
    block['log-arguments'] = r.logArguments;
    block['on-drift'] = r.onDrift;
    if (r.passMethods.length) block['pass-methods'] = r.passMethods;
    return toYaml({ runtime: block });
  },
};
