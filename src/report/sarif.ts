/**
 * SARIF 2.1.0 output for code scanning (docs/design.md §6). Pure: findings + the rule catalog + the
 * tool version in, a `sarif.Log` out.
 *
 * Choices (SARIF 2.1.0, OASIS standard; GitHub "SARIF support for code scanning"):
 * - `tool.driver.rules` lists the whole catalog, so `result.ruleIndex` is the rule's index in it.
 * - Levels map `error`→`error`, `warning`→`warning`, `notice`→`note` (SARIF has no "notice").
 * - Locations are relative URIs under `%SRCROOT%`, percent-encoded per path segment.
 * - `partialFingerprints["toolgate/v2"]` is the finding's stable fingerprint, so code scanning
 *   tracks an alert across runs and commits.
 */
import type * as sarif from 'sarif';
import type { Finding, Level, RuleMeta } from '../rules/types.js';
import { jsonSafe } from './escape.js';
import { isRuleId, ruleById, SCANNING } from '../rules/catalog.js';
import { designAnchor, linkDesignCitations } from './design-links.js';

/** Default `tool.driver.informationUri`; the Action should pass its repository URL. */
export const DEFAULT_INFORMATION_URI = 'https://github.com/toolgate/toolgate';
/** Schema URI written into `$schema` (the SARIF 2.1.0 schema as published by SchemaStore). */
export const SARIF_SCHEMA_URI = 'https://json.schemastore.org/sarif-2.1.0.json';
/**
 * Key of toolgate's fingerprint in `partialFingerprints`; bump the version if the recipe changes.
 * @internal exported for the tests that read fingerprints
 */
export const FINGERPRINT_KEY = 'toolgate/v2';

/** Options for {@link buildSarifLog}. */
export interface SarifOptions {
  /** toolgate's version (`package.json`), written to `tool.driver.version`. */
  version: string;
  /** Project home page. Default {@link DEFAULT_INFORMATION_URI}. */
  informationUri?: string;
  /** Per-rule documentation URL; default `<informationUri>/blob/main/docs/rules.md#<id>`. */
  helpUri?: (ruleId: string) => string | undefined;
  /**
   * File a finding without a location is attached to (e.g. `toolgate.yml`). Code scanning's
   * upload rejects a result without an artifact location ("locationFromSarifResult: expected
   * artifact location"), so the Action should pass its policy file. Default: such results carry
   * no location (valid SARIF, fine for other consumers).
   */
  fallbackFile?: string;
}

/** Finding/rule level → SARIF `level`. */
export function sarifLevel(level: Level): 'error' | 'warning' | 'note' {
  return level === 'notice' ? 'note' : level;
}

/**
 * Builds the SARIF log: one run, driver `toolgate`, every catalog rule, one result per finding
 * (in the order given) but the notices of security rules an approval or the policy lowered
 * (see {@link quietSecurityNotice}).
 *
 * @throws Error when a finding names a rule id absent from `rules` (a bug: ids come from the catalog).
 */
export function buildSarifLog(findings: readonly Finding[], rules: readonly RuleMeta[], options: SarifOptions): sarif.Log {
  const informationUri = options.informationUri ?? DEFAULT_INFORMATION_URI;
  const helpUri = options.helpUri ?? ((id: string) => `${informationUri}/blob/main/docs/rules.md#${id}`);
  const index = new Map<string, number>();
  rules.forEach((r, i) => index.set(r.id, i));

  const descriptors: sarif.ReportingDescriptor[] = rules.map((r) => {
    const uri = helpUri(r.id);
    return {
      id: r.id,
      name: pascalCase(r.id),
      shortDescription: { text: r.title },
      fullDescription: { text: r.rationale },
      help: {
        text: `${r.fix}\n\nSource: ${r.source}`,
        markdown: `**How to fix:** ${r.fix}\n\n**Source:** ${linkDesignCitations(r.source, (n) => `${informationUri}/blob/main/docs/design.md#${designAnchor(n)}`)}`,
      },
      ...(uri !== undefined ? { helpUri: uri } : {}),
      defaultConfiguration: { level: sarifLevel(r.level) },
      properties: scanningProperties(r),
    };
  });

  const results: sarif.Result[] = findings
    .filter((f) => !quietSecurityNotice(f))
    .map((f) => {
      const ruleIndex = index.get(f.ruleId);
      if (ruleIndex === undefined) throw new Error(`finding for unknown rule id ${JSON.stringify(f.ruleId)}`);
      const file = f.location?.file ?? options.fallbackFile;
      const result: sarif.Result = {
        ruleId: f.ruleId,
        ruleIndex,
        level: sarifLevel(f.level),
        message: { text: jsonSafe(f.message) },
        partialFingerprints: { [FINGERPRINT_KEY]: f.fingerprint },
        properties: {
          source: f.source,
          ...(f.tool !== undefined ? { tool: jsonSafe(f.tool, 200) } : {}),
          pointer: f.pointer,
          fix: f.fix,
        },
      };
      if (file !== undefined) {
        const line = f.location?.file !== undefined ? f.location.line : undefined;
        result.locations = [
          {
            physicalLocation: {
              artifactLocation: { uri: toRelativeUri(file), uriBaseId: '%SRCROOT%' },
              ...(line !== undefined && line >= 1 ? { region: { startLine: line } } : {}),
            },
          },
        ];
      }
      return result;
    });

  return {
    $schema: SARIF_SCHEMA_URI,
    version: '2.1.0',
    runs: [
      {
        tool: {
          driver: {
            name: 'toolgate',
            informationUri,
            version: options.version,
            ...(/^\d+\.\d+\.\d+/.test(options.version) ? { semanticVersion: options.version } : {}),
            rules: descriptors,
          },
        },
        results,
        columnKind: 'utf16CodeUnits',
      },
    ],
  };
}

/** Workspace-relative path → relative URI reference (segments percent-encoded, `/` kept). */
export function toRelativeUri(file: string): string {
  return file
    .replace(/\\/g, '/')
    .replace(/^\.\//, '')
    .split('/')
    .map((seg) => encodeURIComponent(seg))
    .join('/');
}

function pascalCase(id: string): string {
  return id
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((w) => w[0]!.toUpperCase() + w.slice(1))
    .join('');
}

/**
 * A rule's `properties` for code scanning: its tags (`security` for a security rule, which GitHub
 * then files as a security alert), `security-severity` (a number as a string, 0.1–10) and
 * `precision` (rules/catalog.ts `SCANNING`).
 */
function scanningProperties(r: RuleMeta): sarif.PropertyBag {
  const scan = isRuleId(r.id) ? SCANNING[r.id] : undefined;
  const tags = ['toolgate', ...(scan?.security !== undefined ? ['security'] : []), ...(r.reviewable ? ['reviewable'] : [])];
  return { tags, ...(scan?.security !== undefined ? { 'security-severity': scan.security.toFixed(1) } : {}), ...(scan ? { precision: scan.precision } : {}) };
}

/**
 * A notice of a security rule whose default level is higher: an approved widening (a reviewable
 * rule an approval turned into a notice) or a rule toolgate.yml lowered. Code scanning ranks an
 * alert by its rule's `security-severity`, whatever the result's level, so such a notice would
 * still be a high alert and fail code scanning's check on a pull request the review passed: it
 * stays out of the SARIF log (the JSON report, the summary and the comment keep it).
 */
function quietSecurityNotice(f: Finding): boolean {
  if (f.level !== 'notice' || !isRuleId(f.ruleId)) return false;
  return SCANNING[f.ruleId].security !== undefined && ruleById(f.ruleId)?.level !== 'notice';
}
