/**
 * `tddAgent.approvalPolicy` as the person's own settings and a workspace's together: the person's value (the manifest's
 * default, then their user settings) is the baseline, and a workspace's or folder's value may only make a level
 * stricter (`allow` < `ask` < `deny`), never looser. CRITICAL never runs unasked, whatever any settings say. Pure.
 */
import { type ApprovalPolicyConfig, type ApprovalRule, DANGER_LEVELS, type DangerLevel, DEFAULT_LEVEL_RULES } from '../../core';

/** The values of one setting per layer, as `WorkspaceConfiguration.inspect(key)` gives them (language-specific ones are not read). */
export interface SettingLayers {
  defaultValue?: unknown;
  globalValue?: unknown;
  workspaceValue?: unknown;
  workspaceFolderValue?: unknown;
}

/** How strict each rule is: a workspace may replace a rule only by a stricter one. */
const STRICTNESS: Readonly<Record<ApprovalRule, number>> = { allow: 0, ask: 1, deny: 2 };

function isRule(value: unknown): value is ApprovalRule {
  return typeof value === 'string' && Object.hasOwn(STRICTNESS, value);
}

function isLevel(key: string): key is DangerLevel {
  return (DANGER_LEVELS as readonly string[]).includes(key);
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The person's own rules: the manifest's default under their user settings (VS Code merges objects key by key). */
function ownRules(layers: SettingLayers): unknown {
  const { defaultValue, globalValue } = layers;
  if (globalValue != null && !isPlainObject(globalValue)) return globalValue; // invalid: the CONFIG error names it
  if (defaultValue == null && globalValue == null) return undefined;
  return { ...(isPlainObject(defaultValue) ? defaultValue : {}), ...(isPlainObject(globalValue) ? globalValue : {}) };
}

/** The rule in effect for `level` under `rules`: the level's own, else the core's default. */
function ruleOf(rules: Record<string, unknown>, level: DangerLevel): ApprovalRule {
  const rule = rules[level];
  return isRule(rule) ? rule : DEFAULT_LEVEL_RULES[level];
}

/** The workspace's and the folder's values, in the order VS Code layers them (`null` counts as unset, as everywhere). */
function workspaceLayers(layers: SettingLayers): unknown[] {
  return [layers.workspaceValue, layers.workspaceFolderValue].filter((value) => value != null);
}

/**
 * The rules per level the settings give: the person's own, each made stricter where a workspace's or folder's value
 * is stricter; a looser workspace rule is dropped. Invalid values (an unknown rule or level, a value that is not an
 * object) are kept as they are, so that reading the settings fails with a CONFIG error naming them.
 */
export function combinedApprovalPolicy(layers: SettingLayers | undefined): unknown {
  if (!layers) return undefined;
  let combined = ownRules(layers);
  for (const theirs of workspaceLayers(layers)) {
    if (!isPlainObject(theirs)) return theirs;
    if (combined !== undefined && !isPlainObject(combined)) return combined;
    const result: Record<string, unknown> = { ...(combined ?? {}) };
    for (const [key, rule] of Object.entries(theirs)) {
      if (!isLevel(key) || !isRule(rule)) {
        result[key] = rule; // invalid: kept for the CONFIG error
        continue;
      }
      const current = result[key] ?? DEFAULT_LEVEL_RULES[key];
      if (isRule(current) && STRICTNESS[rule] > STRICTNESS[current]) result[key] = rule;
    }
    combined = result;
  }
  return combined;
}

/** A workspace's rule that was not applied because it is looser than the person's own (or is CRITICAL `allow`). */
export interface LooserWorkspaceRule {
  level: DangerLevel;
  /** What the workspace's (or folder's) settings say. */
  rule: ApprovalRule;
}

/** The workspace rules {@link combinedApprovalPolicy} leaves out because they would loosen the person's policy, once each. */
export function looserWorkspaceRules(layers: SettingLayers | undefined): LooserWorkspaceRule[] {
  if (!layers) return [];
  const own = ownRules(layers);
  if (own !== undefined && !isPlainObject(own)) return [];
  const looser: LooserWorkspaceRule[] = [];
  for (const theirs of workspaceLayers(layers)) {
    if (!isPlainObject(theirs)) continue;
    for (const [level, rule] of Object.entries(theirs)) {
      if (!isLevel(level) || !isRule(rule) || looser.some((l) => l.level === level && l.rule === rule)) continue;
      if (STRICTNESS[rule] < STRICTNESS[ruleOf(own ?? {}, level)] || (level === 'CRITICAL' && rule === 'allow'))
        looser.push({ level, rule });
    }
  }
  return looser;
}

/**
 * The validated rules per level as the core's ApprovalPolicy takes them. CRITICAL (anything outside the workspace)
 * never runs unasked: an `allow` there, from any settings, is `ask`; `deny` stays.
 */
export function approvalPolicyConfig(levels: Partial<Record<DangerLevel, ApprovalRule>>): ApprovalPolicyConfig {
  if (Object.keys(levels).length === 0) return {};
  return { levels: levels.CRITICAL === 'allow' ? { ...levels, CRITICAL: 'ask' } : { ...levels } };
}
