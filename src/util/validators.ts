/**
 * The JSON Schema validators of toolgate's own files: the policy (`schema/toolgate.schema.json`),
 * the contract (`schema/contract.schema.json`) and the OpenAPI integration config
 * (`schema/integration.schema.json`).
 *
 * From source (tests, tsx) each is compiled with Ajv on first use. The bundles in dist/ do not
 * compile at all: scripts/build.mjs replaces this module with Ajv's standalone code for the same
 * schemas and the same options (see `precompiledValidators` there), because compiling cost
 * 50-150 ms of every run's start-up (cold JIT: Ajv's code generator runs once per process).
 * Keep the options here and there in step.
 */
import { Ajv, type ValidateFunction } from 'ajv';
import policySchema from '../../schema/toolgate.schema.json' with { type: 'json' };
import contractSchema from '../../schema/contract.schema.json' with { type: 'json' };
import integrationSchema from '../../schema/integration.schema.json' with { type: 'json' };

/**
 * Ajv options per validator. `validateSchema: false`: the schemas are ours and tested; checking
 * them against the draft-07 meta-schema would compile the meta-schema on every run.
 */
export const VALIDATOR_OPTIONS = {
  policy: { allErrors: true, strict: false, validateSchema: false },
  contract: { allErrors: false, strict: false, validateSchema: false },
  integration: { allErrors: true, strict: false, validateSchema: false },
} as const;

let policy: ValidateFunction | undefined;
let contract: ValidateFunction | undefined;
let integration: ValidateFunction | undefined;

/** Validates a parsed `toolgate.yml` (all errors). */
export function policyValidator(): ValidateFunction {
  return (policy ??= new Ajv(VALIDATOR_OPTIONS.policy).compile(policySchema));
}

/** Validates a parsed contract (first error). */
export function contractValidator(): ValidateFunction {
  return (contract ??= new Ajv(VALIDATOR_OPTIONS.contract).compile(contractSchema));
}

/** Validates a parsed OpenAPI integration config (all errors). */
export function integrationValidator(): ValidateFunction {
  return (integration ??= new Ajv(VALIDATOR_OPTIONS.integration).compile(integrationSchema));
}
