/**
 * A validator for the official SARIF 2.1.0 JSON schema (OASIS, 2.1.0-rtm.5, draft-04), as shipped
 * in Microsoft's @microsoft/jest-sarif package (only its schema file is used).
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import ajvDraft04 from 'ajv-draft-04';
import ajvFormats from 'ajv-formats';

// Both are CommonJS with `exports.default`; under NodeNext the default import is `module.exports`.
const Ajv04 = ajvDraft04.default;
const addFormats = ajvFormats.default;
const require = createRequire(import.meta.url);
const schema = JSON.parse(readFileSync(require.resolve('@microsoft/jest-sarif/lib/schemas/sarif-2.1.0-rtm.5.json'), 'utf8'));
// unicodeRegExp off: the schema's `language` pattern has a stray `]`, valid only without the `u` flag.
const ajv = new Ajv04({ allErrors: true, strict: false, unicodeRegExp: false });
addFormats(ajv);

/** Ajv validate function for a SARIF log; `validateSarif.errors` holds the problems. */
export const validateSarif = ajv.compile(schema);
