/** Every export target, in the order the table of docs/exports.md and `--help` list them. */
import type { ExportTarget } from '../model.js';
import { agentgatewayK8sTarget, agentgatewayTarget } from './agentgateway.js';
import { claudeCodeTarget } from './claude-code.js';
import { codexTarget } from './codex.js';
import { dockerTarget } from './docker.js';
import { envoyTarget } from './envoy.js';
import { geminiTarget } from './gemini.js';
import { toolgateTarget } from './toolgate.js';
import { toolhiveCedarTarget } from './toolhive-cedar.js';
import { toolhiveTarget } from './toolhive.js';

export const EXPORT_TARGETS: readonly ExportTarget[] = [
  toolgateTarget,
  toolhiveTarget,
  toolhiveCedarTarget,
  agentgatewayTarget,
  agentgatewayK8sTarget,
  dockerTarget,
  envoyTarget,
  claudeCodeTarget,
  geminiTarget,
  codexTarget,
];

/** The target with this `--to` id, or undefined. */
export function targetById(id: string): ExportTarget | undefined {
  return EXPORT_TARGETS.find((t) => t.id === id);
}
