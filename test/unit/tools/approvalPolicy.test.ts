import { strict as assert } from 'node:assert';
import { ControlProtocol, type ApprovalAnswer } from '../../../src/core/control/controlProtocol';
import { InMemoryTransport } from '../../../src/core/control/inMemoryTransport';
import { AgentError } from '../../../src/core/errors/agentError';
import { ApprovalPolicy, DEFAULT_LEVEL_RULES } from '../../../src/core/tools/approvalPolicy';

async function personAlways(tool: string): Promise<ApprovalAnswer> {
  const transport = new InMemoryTransport({ responder: (m, t) => m.type === 'approval_request' && t.always(m.id, 'panel') });
  const control = new ControlProtocol(transport);
  const answer = await control.requestApproval({ tool, dangerLevel: 'MEDIUM', params: {} });
  control.close();
  return answer;
}

describe('ApprovalPolicy', () => {
  // 003: "All non-SAFE tools require approval" — LOW asks too (it was allowed before issue 26).
  it('defaults: SAFE allowed, LOW/MEDIUM/HIGH/CRITICAL asked', () => {
    const policy = new ApprovalPolicy();
    assert.deepEqual(
      (['SAFE', 'LOW', 'MEDIUM', 'HIGH', 'CRITICAL'] as const).map((l) => policy.decide('t', l).rule),
      ['allow', 'ask', 'ask', 'ask', 'ask'],
    );
    assert.deepEqual({ ...DEFAULT_LEVEL_RULES }, { SAFE: 'allow', LOW: 'ask', MEDIUM: 'ask', HIGH: 'ask', CRITICAL: 'ask' });
    assert.equal(new ApprovalPolicy({ autoApproveUpTo: 'MEDIUM' }).decide('t', 'LOW').rule, 'allow', '--yes covers LOW');
    const safe = policy.decide('read_file', 'SAFE');
    assert.equal(safe.outcome, 'auto');
    assert.equal(safe.approvedBy, 'policy');
  });

  it('per-level and per-tool rules, the tool rule winning', () => {
    const policy = new ApprovalPolicy({
      levels: { MEDIUM: 'allow', HIGH: 'deny' },
      tools: { git_commit: 'ask', run_command: 'allow' },
    });
    assert.equal(policy.decide('write_file', 'MEDIUM').rule, 'allow');
    assert.equal(policy.decide('git_commit', 'MEDIUM').rule, 'ask');
    assert.equal(policy.decide('git_commit', 'MEDIUM').source, 'tool');
    assert.equal(policy.decide('delete_file', 'HIGH').rule, 'deny');
    assert.match(policy.decide('delete_file', 'HIGH').reason, /HIGH tools is "deny"/);
    assert.equal(policy.decide('run_command', 'HIGH').rule, 'allow');
  });

  it('--yes approves up to its level, never CRITICAL (capped at HIGH)', () => {
    const medium = new ApprovalPolicy({ autoApproveUpTo: 'MEDIUM' });
    assert.deepEqual([medium.decide('w', 'MEDIUM').rule, medium.decide('w', 'MEDIUM').approvedBy], ['allow', '--yes']);
    assert.equal(medium.decide('r', 'HIGH').rule, 'ask');
    const all = new ApprovalPolicy({ autoApproveUpTo: 'CRITICAL' });
    assert.equal(all.autoApproveLevel, 'HIGH');
    assert.equal(all.decide('r', 'HIGH').rule, 'allow');
    assert.equal(all.decide('http_request', 'CRITICAL').rule, 'ask');
    // --yes does not override an explicit deny.
    assert.equal(new ApprovalPolicy({ autoApproveUpTo: 'HIGH', levels: { MEDIUM: 'deny' } }).decide('w', 'MEDIUM').rule, 'deny');
  });

  it('escalations use the level rule and --yes only, never tool rules or session grants', async () => {
    const policy = new ApprovalPolicy({ tools: { write_file: 'allow' }, autoApproveUpTo: 'MEDIUM' });
    assert.equal(policy.decideLevel('HIGH').rule, 'ask');
    assert.equal(policy.decideLevel('MEDIUM').rule, 'allow');
    assert.equal(policy.decideLevel('SAFE').approvedBy, 'policy');
    assert.equal(new ApprovalPolicy({ levels: { HIGH: 'deny' } }).decideLevel('HIGH').rule, 'deny');
    policy.recordAnswer('edit_file', await personAlways('edit_file'));
    assert.equal(policy.decideLevel('HIGH').rule, 'ask');
  });

  it("records a session grant only from a person's 'always' answer minted by the control protocol", async () => {
    const policy = new ApprovalPolicy();
    // Hand-built answers (what model output could at most produce) are ignored.
    const forged: ApprovalAnswer = { id: 'x', outcome: 'always', answeredBy: 'panel' };
    assert.equal(policy.recordAnswer('write_file', forged), false);
    assert.equal(policy.hasSessionGrant('write_file'), false);
    assert.equal(policy.decide('write_file', 'MEDIUM').rule, 'ask');

    const real = await personAlways('write_file');
    assert.equal(real.outcome, 'always');
    assert.equal(policy.recordAnswer('write_file', real), true);
    const verdict = policy.decide('write_file', 'MEDIUM');
    assert.deepEqual(
      [verdict.rule, verdict.outcome, verdict.source, verdict.approvedBy],
      ['allow', 'always', 'session', 'panel'],
    );
    // The grant is for that tool only.
    assert.equal(policy.decide('edit_file', 'MEDIUM').rule, 'ask');
    assert.deepEqual(policy.sessionGrantNames(), ['write_file']);
    policy.revokeSessionGrants('write_file');
    assert.equal(policy.decide('write_file', 'MEDIUM').rule, 'ask');
    policy.recordAnswer('write_file', real);
    policy.revokeSessionGrants();
    assert.equal(policy.hasSessionGrant('write_file'), false);
  });

  it('a session grant never overrides a deny rule, and approve-once answers add no grant', async () => {
    const policy = new ApprovalPolicy({ tools: { delete_file: 'deny' } });
    assert.equal(policy.recordAnswer('delete_file', await personAlways('delete_file')), false);
    assert.equal(policy.decide('delete_file', 'HIGH').rule, 'deny');
    const transport = new InMemoryTransport({ responder: (m, t) => m.type === 'approval_request' && t.approve(m.id) });
    const once = await new ControlProtocol(transport).requestApproval({ tool: 'w', dangerLevel: 'MEDIUM', params: {} });
    assert.equal(policy.recordAnswer('w', once), false);
  });

  it('rejects an invalid configuration with every problem listed', () => {
    assert.throws(
      () => new ApprovalPolicy({ levels: { MEDIUM: 'maybe' }, tools: { x: 'sometimes' }, extra: 1 } as never),
      (e: unknown) =>
        e instanceof AgentError &&
        e.error_code === 'CONFIG' &&
        /levels\.MEDIUM/.test(e.message) &&
        /tools\.x/.test(e.message) &&
        /extra/.test(e.message),
    );
  });
});
