import { z } from 'zod';
import { isPersonAnswer, type ApprovalAnswer } from '../control/controlProtocol';
import { AgentError } from '../errors/agentError';
import { DANGER_LEVELS, dangerRank, type DangerLevel } from './types';

/** What the policy says about a call: run it, ask a person, or refuse. */
export const APPROVAL_RULES = ['allow', 'ask', 'deny'] as const;
/** One of APPROVAL_RULES. */
export type ApprovalRule = (typeof APPROVAL_RULES)[number];

/**
 * Defaults per danger level (003: "all non-SAFE tools require approval"). SAFE (reads) runs without
 * asking; LOW, MEDIUM, HIGH and CRITICAL ask. None of the built-in tools is LOW (reads are SAFE, writes
 * and test runs MEDIUM), so LOW concerns tools a person declares so (an MCP server's `dangerLevel`, a
 * custom tool); `levels: { LOW: 'allow' }` or `--yes` (which covers LOW) lets them run unasked. CRITICAL
 * (anything touching outside the workspace) is `ask`, not `deny`, because "nothing leaves the workspace
 * unless a person says so": a person may say so, but `--yes` never does (see `autoApproveUpTo`).
 */
export const DEFAULT_LEVEL_RULES: Readonly<Record<DangerLevel, ApprovalRule>> = Object.freeze({
  SAFE: 'allow',
  LOW: 'ask',
  MEDIUM: 'ask',
  HIGH: 'ask',
  CRITICAL: 'ask',
});

/** Highest level `--yes` may auto-approve; CRITICAL always needs a person's answer. */
export const MAX_AUTO_APPROVE_LEVEL: DangerLevel = 'HIGH';

/** The person-written configuration of an ApprovalPolicy (settings, CLI flags). */
export const approvalPolicyConfigSchema = z
  .object({
    /** Rule per danger level; missing levels keep the defaults. */
    levels: z.partialRecord(z.enum(DANGER_LEVELS), z.enum(APPROVAL_RULES)).optional(),
    /** Rule per tool name; wins over the level rule. */
    tools: z.record(z.string(), z.enum(APPROVAL_RULES)).optional(),
    /** `--yes[=LEVEL]`: `ask` calls up to this level are approved without asking (capped at HIGH). */
    autoApproveUpTo: z.enum(DANGER_LEVELS).optional(),
  })
  .strict();
/** Input of `new ApprovalPolicy(config)`. */
export type ApprovalPolicyConfig = z.input<typeof approvalPolicyConfigSchema>;

/** The policy's verdict for one call, with where it came from. */
export interface ApprovalVerdict {
  /** `allow` runs the call without asking, `ask` needs a person, `deny` refuses. */
  rule: ApprovalRule;
  /** `auto`: allowed by a rule or `--yes`; `always`: allowed by a session grant. */
  outcome?: 'auto' | 'always';
  /** Where the verdict came from: a tool rule, a level rule, `--yes`, or a session grant. */
  source: 'tool' | 'level' | 'autoApprove' | 'session';
  /** Words for the model and the audit trail. */
  reason: string;
  /** Who allowed it: the person behind a session grant, `--yes`, or `policy`. Absent unless rule is `allow`. */
  approvedBy?: string;
}

/**
 * Decides per call whether a tool runs, needs a person, or is refused. Configuration is frozen
 * at construction and only a person's "always allow" answer (an ApprovalAnswer minted by the
 * ControlProtocol) adds a session grant; nothing derived from tool parameters or model output
 * is consulted, so the model cannot make the policy more lenient.
 */
export class ApprovalPolicy {
  private readonly levels: Readonly<Record<DangerLevel, ApprovalRule>>;
  private readonly tools: ReadonlyMap<string, ApprovalRule>;
  private readonly autoApproveUpTo: DangerLevel | undefined;
  private readonly sessionGrants = new Map<string, string>();
  /**
   * The verdicts of the fixed rules (`allow` and `deny` of a tool or level rule), made once: the rules never change
   * after construction, and a verdict object per call was most of the policy's cost. By tool name, and by level.
   */
  private readonly toolVerdicts = new Map<string, ApprovalVerdict>();
  private readonly levelVerdicts = new Map<string, ApprovalVerdict>();

  /** Throws AgentError(CONFIG) listing each problem when `config` is invalid. */
  constructor(config: ApprovalPolicyConfig = {}) {
    const parsed = approvalPolicyConfigSchema.safeParse(config);
    if (!parsed.success) {
      const problems = parsed.error.issues.map((i) => `${i.path.join('.') || '(policy)'}: ${i.message}`);
      throw new AgentError('CONFIG', `Invalid approval policy:\n${problems.map((p) => `  - ${p}`).join('\n')}`, { problems });
    }
    const { levels, tools, autoApproveUpTo } = parsed.data;
    this.levels = Object.freeze({ ...DEFAULT_LEVEL_RULES, ...levels });
    this.tools = new Map(Object.entries(tools ?? {}));
    this.autoApproveUpTo =
      autoApproveUpTo && dangerRank(autoApproveUpTo) > dangerRank(MAX_AUTO_APPROVE_LEVEL)
        ? MAX_AUTO_APPROVE_LEVEL
        : autoApproveUpTo;
  }

  /** The `--yes` level in effect (after the HIGH cap), if any. */
  get autoApproveLevel(): DangerLevel | undefined {
    return this.autoApproveUpTo;
  }

  /** The verdict for calling `toolName` at `dangerLevel`. Takes no parameters of the call, on purpose. */
  decide(toolName: string, dangerLevel: DangerLevel): ApprovalVerdict {
    const toolRule = this.tools.get(toolName);
    const fixed = toolRule ? this.toolVerdicts.get(toolName) : this.levelVerdicts.get(dangerLevel);
    if (fixed) return fixed;
    const rule = toolRule ?? this.levels[dangerLevel];
    const verdict = toolRule
      ? this.verdict(rule, 'tool', `the policy for tool ${toolName}`, dangerLevel, toolName)
      : this.verdict(rule, 'level', `the policy for ${dangerLevel} tools`, dangerLevel, toolName);
    // An `ask` verdict depends on session grants and `--yes`; an `allow` or `deny` rule's never changes.
    if (rule !== 'ask') {
      if (toolRule) this.toolVerdicts.set(toolName, Object.freeze(verdict));
      else this.levelVerdicts.set(dangerLevel, Object.freeze(verdict));
    }
    return verdict;
  }

  /**
   * The verdict for a one-off escalation to `level` (e.g. a write under `.vscode/` needs HIGH):
   * the level rule and `--yes` only. Session grants and tool rules do not apply, so "always allow
   * write_file" does not cover protected paths.
   */
  decideLevel(level: DangerLevel): ApprovalVerdict {
    return this.verdict(this.levels[level], 'level', `the policy for ${level} actions`, level);
  }

  /** Applies `rule` (described by `what`); an `ask` is then settled by a session grant for `grantFor`, or by `--yes`. */
  private verdict(
    rule: ApprovalRule,
    source: 'tool' | 'level',
    what: string,
    level: DangerLevel,
    grantFor?: string,
  ): ApprovalVerdict {
    if (rule === 'deny') return { rule, source, reason: `${what} is "deny"` };
    if (rule === 'allow') return { rule, outcome: 'auto', source, reason: `${what} is "allow"`, approvedBy: 'policy' };
    const grantedBy = grantFor === undefined ? undefined : this.sessionGrants.get(grantFor);
    if (grantedBy !== undefined) {
      return {
        rule: 'allow',
        outcome: 'always',
        source: 'session',
        reason: `${grantedBy} always allowed ${grantFor} for this session`,
        approvedBy: grantedBy,
      };
    }
    if (this.autoApproveUpTo !== undefined && dangerRank(level) <= dangerRank(this.autoApproveUpTo)) {
      return {
        rule: 'allow',
        outcome: 'auto',
        source: 'autoApprove',
        reason: `approved up to ${this.autoApproveUpTo} by --yes`,
        approvedBy: '--yes',
      };
    }
    return { rule: 'ask', source, reason: `${what} is "ask"` };
  }

  /**
   * Records a person's answer. Only an `always` answer minted by a ControlProtocol from a real
   * response adds a session grant for `toolName`; returns whether it did.
   */
  recordAnswer(toolName: string, answer: ApprovalAnswer): boolean {
    if (answer.outcome !== 'always' || !isPersonAnswer(answer)) return false;
    if (this.tools.get(toolName) === 'deny') return false;
    this.sessionGrants.set(toolName, answer.answeredBy ?? 'a person');
    return true;
  }

  /** Whether a session grant exists for `toolName`. */
  hasSessionGrant(toolName: string): boolean {
    return this.sessionGrants.has(toolName);
  }

  /** Tool names with a session grant. */
  sessionGrantNames(): string[] {
    return [...this.sessionGrants.keys()];
  }

  /** Drops session grants (one tool, or all). */
  revokeSessionGrants(toolName?: string): void {
    if (toolName === undefined) this.sessionGrants.clear();
    else this.sessionGrants.delete(toolName);
  }
}
