import { strict as assert } from 'node:assert';
import { sanitizeGitConfig, withoutUserInfo } from '../../../src/core/osSandbox';

/** `git config --list -z` output for these entries. */
const listed = (entries: [string, string | undefined][]) =>
  entries.map(([k, v]) => (v === undefined ? k : `${k}\n${v}`)).join('\0') + '\0';

describe('sanitizeGitConfig: the git config shown inside the sandbox', () => {
  it('keeps the repository format, remotes without user info, branches and the identity', () => {
    const text = sanitizeGitConfig(
      listed([
        ['core.repositoryformatversion', '1'],
        ['core.bare', undefined],
        ['extensions.objectformat', 'sha256'],
        ['remote.origin.url', 'https://ada:ghp_x@github.com/a/b.git'],
        ['remote.origin.fetch', '+refs/heads/*:refs/remotes/origin/*'],
        ['branch.main.remote', 'origin'],
        ['user.name', 'Ada "the" Lovelace'],
      ]),
    );
    assert.equal(
      text,
      [
        '[core]',
        '\trepositoryformatversion = "1"',
        '\tbare',
        '[extensions]',
        '\tobjectformat = "sha256"',
        '[remote "origin"]',
        '\turl = "https://github.com/a/b.git"',
        '\tfetch = "+refs/heads/*:refs/remotes/origin/*"',
        '[branch "main"]',
        '\tremote = "origin"',
        '[user]',
        '\tname = "Ada \\"the\\" Lovelace"',
        '',
      ].join('\n'),
    );
  });

  it('drops includes, credentials, http headers, url rewrites, aliases and keys that name programs', () => {
    const text = sanitizeGitConfig(
      listed([
        ['include.path', '/home/ada/.gitconfig-work'],
        ['includeif.gitdir:/w/.path', '/x'],
        ['credential.helper', 'store'],
        ['credential.https://github.com.username', 'ada'],
        ['http.https://github.com/.extraheader', 'Authorization: Bearer ghp_x'],
        ['url.https://t:ghp_x@github.com/.insteadof', 'https://github.com/'],
        ['alias.st', '!sh -c evil'],
        ['core.sshcommand', 'ssh -i key'],
        ['core.fsmonitor', '/bin/evil'],
        ['remote.origin.uploadpack', '/bin/evil'],
        ['filter.lfs.smudge', 'git-lfs smudge'],
        ['user.signingkey', 'KEY'],
      ]),
    );
    assert.equal(text, '');
  });

  it('takes user info out of URLs, the scp form with a password included', () => {
    assert.equal(withoutUserInfo('https://u:p@h/r'), 'https://h/r');
    assert.equal(withoutUserInfo('ssh://git@h:22/r'), 'ssh://h:22/r');
    assert.equal(withoutUserInfo('u:p@h:r.git'), 'h:r.git');
    assert.equal(withoutUserInfo('git@github.com:a/b.git'), 'git@github.com:a/b.git');
    assert.equal(withoutUserInfo('/srv/repo.git'), '/srv/repo.git');
  });
});
