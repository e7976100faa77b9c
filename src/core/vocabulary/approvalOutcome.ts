/**
 * How a call was approved or refused: `auto` by policy or `--yes`, `approved` / `always` by a person,
 * `denied` by a person (or no one to ask), `timeout` when nobody answered, `policy_denied` by a `deny` rule.
 */
export type ApprovalOutcome = 'auto' | 'approved' | 'always' | 'denied' | 'timeout' | 'policy_denied';
