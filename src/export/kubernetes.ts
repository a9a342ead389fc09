/** What Kubernetes asks of resource names, for the exports that write resources. Pure. */
import { assertNames, type NameRule } from './names.js';

/**
 * `metadata.name` of most resources: a DNS subdomain name (RFC 1123), at most 253 characters.
 * Source: kubernetes.io/docs/concepts/overview/working-with-objects/names/#dns-subdomain-names
 */
export const DNS_SUBDOMAIN: NameRule = {
  test: (n) => n.length <= 253 && /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/.test(n),
  rule: 'lower-case letters, digits, "-" and ".", starting and ending with a letter or digit, at most 253 characters (a DNS subdomain name)',
  source: 'kubernetes.io/docs/concepts/overview/working-with-objects/names',
};

/** Refuses a server name that cannot be a resource's `metadata.name`. */
export function assertResourceName(target: string, server: string): void {
  assertNames(
    target,
    'resource name (the server name)',
    [server],
    DNS_SUBDOMAIN,
    'Set `server:` on the export entry in toolgate.yml (or --server) to a DNS subdomain name, e.g. my-server.',
  );
}
