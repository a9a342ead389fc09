// The handwritten development set (README.md in this folder): poisoned cases of six categories and
// tricky benign servers.
import benign from './benign.mjs';
import commandInjection from './command-injection.mjs';
import filesystem from './filesystem.mjs';
import functionDependency from './function-dependency.mjs';
import parameterPoisoning from './parameter-poisoning.mjs';
import toolRedirection from './tool-redirection.mjs';
import urlRequest from './url-request.mjs';

export { VARIED_BENIGN, VARIED_POISONED } from './varied.mjs';
export { AFTER_BENIGN, AFTER_POISONED } from './after.mjs';
export { FIFTH_POISONED } from './fifth.mjs';
export { SIXTH_BENIGN, SIXTH_POISONED } from './sixth.mjs';
export { SEVENTH_BENIGN, SEVENTH_POISONED } from './seventh.mjs';
export { EIGHTH_BENIGN, EIGHTH_POISONED } from './eighth.mjs';
export { NINTH_BENIGN, NINTH_POISONED, NINTH_ROWS_BENIGN } from './ninth.mjs';

/** `{id, category, poisoned, tools}`: `poisoned` names the tool that carries the attack. */
export const HANDWRITTEN_POISONED = [...functionDependency, ...toolRedirection, ...urlRequest, ...commandInjection, ...parameterPoisoning, ...filesystem];

/** `{id, tools}`: servers whose every tool must stay silent. */
export const HANDWRITTEN_BENIGN = benign;
